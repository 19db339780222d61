import type { Client, CallToolResult } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Sandbox, SANDBOX_KEYS, startSandbox } from '../../src/sandbox/index.js';
import { TEST_NOW } from '../../scripts/harness/sandbox.js';
import { type Relay, startRelay, runBinary } from './helpers.js';
import { type HttpBinary, INITIALIZE, connectHttp, mcpHeaders, raw, startHttpBinary } from '../../scripts/harness/http.js';

let sb: Sandbox;
let relay: Relay;
/** Keys from each request's Authorization header (the server holds none). */
let bin: HttpBinary;
const bearer = (key: keyof typeof SANDBOX_KEYS) => `Bearer ${SANDBOX_KEYS[key]}`;
const opened: Client[] = [];

beforeAll(async () => {
  sb = await startSandbox({ port: 0, now: TEST_NOW, logLevel: 'silent' });
  relay = await startRelay(sb.baseUrl);
  bin = await startHttpBinary(['--base-url', relay.url]);
});
afterAll(async () => {
  await Promise.all(opened.map((c) => c.close().catch(() => undefined)));
  await bin.stop('SIGKILL');
  await relay.close();
  await sb.close();
});

async function session(url: string, authorization?: string): Promise<Client> {
  const c = await connectHttp(url, authorization);
  opened.push(c);
  return c;
}

async function ownerOf(c: Client): Promise<string> {
  const r = (await c.callTool({ name: 'get_me', arguments: {} })) as CallToolResult;
  expect(r.isError).toBeFalsy();
  return (r.structuredContent as { owner: { id: string } }).owner.id;
}

const meRequests = () => relay.requests.filter((r) => r.startsWith('GET /v1/me')).length;

describe("Streamable HTTP: the Reply Inbox key comes from each request's Authorization: Bearer header", () => {
  it('each session acts with its own key; the sessions of one key share one client (its GET /v1/me is read once)', async () => {
    const before = meRequests();
    const ada1 = await session(bin.url, bearer('admin'));
    const ada2 = await session(bin.url, bearer('admin'));
    const ben = await session(bin.url, bearer('rep'));
    expect(await ownerOf(ada1)).toBe('usr_ada');
    expect(await ownerOf(ada2)).toBe('usr_ada');
    expect(await ownerOf(ben)).toBe('usr_ben');
    expect((await ben.listTools()).tools.map((t) => t.name)).not.toContain('get_insights_summary');
    expect((await ada2.listTools()).tools.map((t) => t.name)).toContain('get_insights_summary');
    // One read of GET /v1/me per key, cached by that key's client for its sessions and get_me calls.
    expect(meRequests() - before).toBe(2);
  });

  it('a session answers only the caller that opened it: another key gets 404 for it', async () => {
    const init = await raw(bin.url, { headers: mcpHeaders({ authorization: bearer('admin') }), body: INITIALIZE });
    expect(init.status).toBe(200);
    const sid = String(init.headers['mcp-session-id']);
    const list = JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' });
    const stranger = await raw(bin.url, {
      headers: mcpHeaders({ authorization: bearer('rep'), 'mcp-session-id': sid, 'mcp-protocol-version': '2025-06-18' }),
      body: list,
    });
    expect(stranger.status).toBe(404);
    expect(JSON.parse(stranger.body).error.message).toMatch(/Session not found/);
    const owner = await raw(bin.url, {
      headers: mcpHeaders({ authorization: bearer('admin'), 'mcp-session-id': sid, 'mcp-protocol-version': '2025-06-18' }),
      body: list,
    });
    expect(owner.status).toBe(200);
    expect(owner.body).toContain('list_leads');
    const gone = await raw(bin.url, { method: 'DELETE', headers: { authorization: bearer('admin'), 'mcp-session-id': sid } });
    expect(gone.status).toBe(200);
  });
});

describe('Streamable HTTP: unauthenticated requests get 401 without touching the API', () => {
  it('no header, another scheme, a bearer that is not a key, a test key, or the key in a query string: 401 and nothing reaches the API', async () => {
    const before = relay.requests.length;
    const attempts: [string, Record<string, string>][] = [
      [bin.url, {}],
      [bin.url, { authorization: `Basic ${Buffer.from('a:b').toString('base64')}` }],
      [bin.url, { authorization: 'Bearer not-a-key' }],
      [bin.url, { authorization: bearer('test') }],
      [`${bin.url}?api_key=${SANDBOX_KEYS.admin}`, {}],
      [`${bin.url}?key=${SANDBOX_KEYS.admin}&token=${SANDBOX_KEYS.admin}`, {}],
    ];
    for (const [url, headers] of attempts) {
      const r = await raw(url, { headers: mcpHeaders(headers), body: INITIALIZE });
      expect(r.status, JSON.stringify(headers)).toBe(401);
      expect(r.headers['www-authenticate']).toBe('Bearer');
      const body = JSON.parse(r.body);
      expect(body).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32000 } });
      expect(body.error.message).toMatch(/Authorization: Bearer/);
    }
    expect(relay.requests.length).toBe(before);
  });

  it("a well-formed key the API refuses gets 401 with the API's code", async () => {
    const r = await raw(bin.url, { headers: mcpHeaders({ authorization: bearer('revoked') }), body: INITIALIZE });
    expect(r.status).toBe(401);
    expect(JSON.parse(r.body).error.message).toMatch(/key_revoked/);
    expect(r.body).not.toContain(SANDBOX_KEYS.revoked);
  });
});

describe('DNS-rebinding protection: Host and Origin are checked against the allow-list', () => {
  it('a foreign Host or Origin gets 403 and reaches nothing; loopback names on any port pass', async () => {
    const port = new URL(bin.url).port;
    const before = relay.requests.length;
    const foreignHost = await raw(bin.url, { headers: mcpHeaders({ host: `evil.example.com:${port}`, authorization: bearer('admin') }), body: INITIALIZE });
    expect(foreignHost.status).toBe(403);
    expect(JSON.parse(foreignHost.body).error.message).toMatch(/Host "evil\.example\.com:\d+" is not allowed/);
    const foreignOrigin = await raw(bin.url, {
      headers: mcpHeaders({ host: `localhost:${port}`, origin: 'http://evil.example.com', authorization: bearer('admin') }),
      body: INITIALIZE,
    });
    expect(foreignOrigin.status).toBe(403);
    expect(JSON.parse(foreignOrigin.body).error.message).toMatch(/Origin "http:\/\/evil\.example\.com" is not allowed/);
    // Refused before the credentials are even read: not a 401, and no call to the API.
    const noKey = await raw(bin.url, { headers: mcpHeaders({ host: 'evil.example.com' }), body: INITIALIZE });
    expect(noKey.status).toBe(403);
    expect(relay.requests.length).toBe(before);
    for (const host of [`localhost:${port}`, `127.0.0.1:${port}`, 'localhost']) {
      const ok = await raw(bin.url, { headers: mcpHeaders({ host, origin: `http://${host}`, authorization: bearer('admin') }), body: INITIALIZE });
      expect(ok.status, host).toBe(200);
    }
  });
});

describe('--allowed-hosts: the names a deployment is reached by replace the loopback defaults', () => {
  it('a listed name passes on any port, a loopback name no longer does', async () => {
    const named = await startHttpBinary(['--base-url', relay.url, '--allowed-hosts', 'mcp.example.com,other.example.com:8443']);
    try {
      const send = (host: string) => raw(named.url, { headers: mcpHeaders({ host, authorization: bearer('admin') }), body: INITIALIZE }).then((r) => r.status);
      expect(await send('mcp.example.com')).toBe(200);
      expect(await send('MCP.example.com:443')).toBe(200);
      expect(await send('other.example.com:8443')).toBe(200);
      expect(await send('other.example.com:9999')).toBe(403);
      expect(await send(`127.0.0.1:${new URL(named.url).port}`)).toBe(403);
    } finally {
      await named.stop('SIGKILL');
    }
  });
});

describe('HTTP flags: a mistake is named before anything starts (exit 2)', () => {
  it.each([
    [['--http', '0.0.0.0:0', '--base-url', 'http://127.0.0.1:9'], /--allowed-hosts: listening on 0\.0\.0\.0/],
    [['--http', '0', '--api-key', SANDBOX_KEYS.admin, '--base-url', 'http://127.0.0.1:9'], /protect the endpoint with --http-token/],
    [['--sandbox', '--http-token', 'a-long-enough-secret'], /--http-token protects the HTTP endpoint: use it with --http/],
    [['--sandbox', '--http', '0', '--http-token', 'short'], /--http-token: use a secret of at least 16 characters/],
    // A bearer token is one word: a token with spaces or quotes could never match, so it is refused at start.
    [
      ['--sandbox', '--http', '0', '--http-token', 'correct horse battery staple'],
      /--http-token: use only letters, digits and - \. _ ~ \+ \/ \(no spaces or quotes\)/,
    ],
    [['--sandbox', '--http', '0', '--http-token', '"quoted-secret-of-the-team"'], /--http-token: use only letters/],
    [['--sandbox', '--http', 'localhost:http'], /--http: expected \[host:\]port/],
    [['--sandbox', '--redis', 'http://127.0.0.1:6379'], /--redis: expected redis:\/\/host:port/],
    [['--sandbox', '--http', '0', '--max-sessions', '0'], /--max-sessions/],
  ])('%j', async (args, message) => {
    const r = await runBinary(args as string[]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(message);
    expect(r.stdout).toBe('');
  });
});

describe('Limits on body size: over 1 MiB gets 413, a body that is not JSON gets 400', () => {
  it('a declared length over the limit and a chunked body past it are both refused with a JSON-RPC error', async () => {
    const big = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'create_note', arguments: { body: 'x'.repeat(1_200_000) } } });
    const declared = await raw(bin.url, { headers: mcpHeaders({ authorization: bearer('admin') }), body: big });
    expect(declared.status).toBe(413);
    expect(JSON.parse(declared.body)).toMatchObject({
      jsonrpc: '2.0',
      id: null,
      error: { code: -32600, message: 'Request body over the limit of 1048576 bytes.' },
    });
    const chunked = await raw(bin.url, { headers: mcpHeaders({ authorization: bearer('admin'), 'transfer-encoding': 'chunked' }), body: big });
    expect(chunked.status).toBe(413);
    const notJson = await raw(bin.url, { headers: mcpHeaders({ authorization: bearer('admin') }), body: '{"jsonrpc": "2.0", ' });
    expect(notJson.status).toBe(400);
    expect(JSON.parse(notJson.body).error.code).toBe(-32700);
  });
});

describe('Limits on concurrent sessions (--max-sessions): more get 503 with a clear error', () => {
  it('a third session at a cap of two closes the least recently used idle one instead of being refused', async () => {
    const capped = await startHttpBinary(['--base-url', relay.url], { REPLY_INBOX_MAX_SESSIONS: '2' });
    try {
      const a = await connectHttp(capped.url, bearer('admin'));
      const b = await connectHttp(capped.url, bearer('rep'));
      expect(await ownerOf(b)).toBe('usr_ben');
      const third = await raw(capped.url, { headers: mcpHeaders({ authorization: bearer('admin') }), body: INITIALIZE });
      expect(third.status).toBe(200);
      // a was the least recently used: it is gone, b still answers.
      await expect(a.callTool({ name: 'get_me', arguments: {} })).rejects.toThrow();
      expect(await ownerOf(b)).toBe('usr_ben');
      await Promise.all([a.close().catch(() => undefined), b.close()]);
    } finally {
      await capped.stop('SIGKILL');
    }
  });
});

describe('Progress notifications reach the client: tool calls answer with SSE, not JSON only', () => {
  it('a multi-page list_leads sends a progress notification per page before its result', async () => {
    const c = await session(bin.url, bearer('admin'));
    const progress: number[] = [];
    // Rows of two fields: a page of them fits the default budget, so the read goes on past its first page.
    const r = (await c.callTool(
      { name: 'list_leads', arguments: { workspace: 'acme', max_items: 450, fields: ['status'] } },
      {
        onprogress: (p) => progress.push(p.progress),
      },
    )) as CallToolResult;
    expect(r.isError).toBeFalsy();
    // The result budget shows as many as fit of what was read and counts the rest in left_out.
    const sc = r.structuredContent as { data: unknown[]; left_out?: { count: number } };
    expect(sc.data.length + (sc.left_out?.count ?? 0)).toBe(progress.at(-1));
    expect(progress.length).toBeGreaterThanOrEqual(2);
    expect([...progress].sort((x, y) => x - y)).toEqual(progress);
  });
});

describe('GET /healthz for load balancers', () => {
  it('answers 200 with the session count, without credentials and whatever the Host; only GET and HEAD', async () => {
    const health = bin.url.replace(/\/mcp$/, '/healthz');
    const r = await raw(health, { method: 'GET', headers: { host: 'lb-probe.internal' } });
    expect(r.status).toBe(200);
    const body = JSON.parse(r.body);
    expect(body).toMatchObject({ status: 'ok', redis: 'off' });
    expect(body.sessions).toBeGreaterThanOrEqual(1);
    expect((await raw(health, { method: 'POST', body: '{}' })).status).toBe(405);
    expect((await raw(bin.url.replace(/\/mcp$/, '/other'), { method: 'GET' })).status).toBe(404);
  });
});

describe('--http-token: a separate secret protects the endpoint and the server acts with its configured key', () => {
  it('the token opens sessions that act with the configured key; a wrong token or an API key instead gets 401', async () => {
    const token = 'a-long-shared-secret-of-the-deployment';
    const guarded = await startHttpBinary(['--base-url', relay.url, '--http-token', token], { REPLY_INBOX_API_KEY: SANDBOX_KEYS.rep });
    try {
      const c = await connectHttp(guarded.url, `Bearer ${token}`);
      expect(await ownerOf(c)).toBe('usr_ben');
      await c.close();
      for (const authorization of [`Bearer ${token}x`, bearer('admin'), bearer('rep')]) {
        const r = await raw(guarded.url, { headers: mcpHeaders({ authorization }), body: INITIALIZE });
        expect(r.status).toBe(401);
        expect(JSON.parse(r.body).error.message).toMatch(/access token/);
      }
    } finally {
      await guarded.stop('SIGKILL');
    }
  });
});
