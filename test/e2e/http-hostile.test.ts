import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Sandbox, SANDBOX_KEYS, startSandbox } from '../../src/sandbox/index.js';
import { TEST_NOW } from '../../scripts/harness/sandbox.js';
import { type Relay, startRelay, runBinary } from './helpers.js';
import { type HttpBinary, INITIALIZE, mcpHeaders, raw, startHttpBinary } from '../../scripts/harness/http.js';

/** Callers who mean harm: made-up keys, key guessing, one key hoarding sessions, endless bodies, hostile JSON-RPC. */
let sb: Sandbox;
let relay: Relay;
let bin: HttpBinary;
const bearer = (key: string) => `Bearer ${key}`;
const madeUpKey = (i: number) => `rik_live_${`fake${i}`.padEnd(8, 'x').slice(0, 8)}_${String(i).padStart(32, '0')}`;
const health = async (b: HttpBinary) =>
  JSON.parse((await raw(b.url.replace(/\/mcp$/, '/healthz'), { method: 'GET' })).body) as { keys: number; sessions: number };
const meRequests = () => relay.requests.filter((r) => r.startsWith('GET /v1/me')).length;

/** Open a session over raw HTTP as a client does (initialize, then its initialized notification); its id. */
async function open(b: HttpBinary, key: string): Promise<string> {
  const r = await raw(b.url, { headers: mcpHeaders({ authorization: bearer(key) }), body: INITIALIZE });
  expect(r.status, r.body).toBe(200);
  const sid = String(r.headers['mcp-session-id']);
  expect((await post(b, key, sid, JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }))).status).toBe(202);
  return sid;
}

/** One JSON-RPC POST on a session; the answer's status and JSON-RPC message (SSE or JSON). */
async function post(b: HttpBinary, key: string, sid: string | undefined, body: string): Promise<{ status: number; message: any }> {
  const headers = mcpHeaders({ authorization: bearer(key), 'mcp-protocol-version': '2025-06-18', ...(sid ? { 'mcp-session-id': sid } : {}) });
  const r = await raw(b.url, { headers, body });
  const data = r.body.split('\n').find((l) => l.startsWith('data: '));
  return { status: r.status, message: r.body ? JSON.parse(data ? data.slice(6) : r.body) : null };
}

beforeAll(async () => {
  sb = await startSandbox({ port: 0, now: TEST_NOW, logLevel: 'silent' });
  relay = await startRelay(sb.baseUrl);
  bin = await startHttpBinary(['--base-url', relay.url, '--auth-failures-per-minute', '0']);
});
afterAll(async () => {
  await bin.stop('SIGKILL');
  await relay.close();
  await sb.close();
});

describe('Made-up keys leave nothing behind (bearer mode)', () => {
  it('each made-up but well-formed key costs one GET /v1/me and a 401; no client is kept for it', async () => {
    const before = meRequests();
    for (let i = 0; i < 25; i++) {
      const r = await raw(bin.url, { headers: mcpHeaders({ authorization: bearer(madeUpKey(i)) }), body: INITIALIZE });
      expect(r.status).toBe(401);
      expect(JSON.parse(r.body).error.message).toMatch(/refused this key \(invalid_key\)/);
    }
    expect(meRequests() - before).toBe(25);
    expect(await health(bin)).toMatchObject({ keys: 0, sessions: 0 });
  });

  it("an accepted key is read once (the probe's answer seeds its client) and is then held", async () => {
    const before = meRequests();
    await open(bin, SANDBOX_KEYS.readonly);
    await open(bin, SANDBOX_KEYS.readonly);
    expect(meRequests() - before).toBe(1);
    expect((await health(bin)).keys).toBeGreaterThanOrEqual(1);
  });
});

describe('Failed authentications are limited per client address (--auth-failures-per-minute)', () => {
  it('past the limit the address gets 429 with Retry-After, even with a good key, and nothing reaches the API', async () => {
    const limited = await startHttpBinary(['--base-url', relay.url, '--auth-failures-per-minute', '3']);
    try {
      const attempts = [bearer('not-a-key'), bearer(madeUpKey(100)), bearer(madeUpKey(101))];
      for (const authorization of attempts) {
        expect((await raw(limited.url, { headers: mcpHeaders({ authorization }), body: INITIALIZE })).status).toBe(401);
      }
      const before = relay.requests.length;
      for (const key of [madeUpKey(102), SANDBOX_KEYS.admin]) {
        const r = await raw(limited.url, { headers: mcpHeaders({ authorization: bearer(key) }), body: INITIALIZE });
        expect(r.status).toBe(429);
        const wait = Number(r.headers['retry-after']);
        expect(wait).toBeGreaterThan(0);
        expect(wait).toBeLessThanOrEqual(60);
        expect(JSON.parse(r.body).error.message).toMatch(/Too many failed authentications from this address; try again in \d+ s/);
      }
      expect(relay.requests.length).toBe(before);
    } finally {
      await limited.stop('SIGKILL');
    }
  });
});

describe('One key cannot take every session (--max-sessions-per-key)', () => {
  it('a key at its cap gives up its own oldest idle session; another key keeps its own', async () => {
    const capped = await startHttpBinary(['--base-url', relay.url, '--max-sessions-per-key', '2']);
    try {
      const ping = JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'ping' });
      const other = await open(capped, SANDBOX_KEYS.rep);
      const first = await open(capped, SANDBOX_KEYS.admin);
      const second = await open(capped, SANDBOX_KEYS.admin);
      await new Promise((r) => setTimeout(r, 5));
      expect((await post(capped, SANDBOX_KEYS.admin, second, ping)).status).toBe(200);
      const third = await open(capped, SANDBOX_KEYS.admin);
      expect((await post(capped, SANDBOX_KEYS.admin, first, ping)).status).toBe(404);
      for (const sid of [second, third]) expect((await post(capped, SANDBOX_KEYS.admin, sid, ping)).message).toMatchObject({ id: 9, result: {} });
      expect((await post(capped, SANDBOX_KEYS.rep, other, ping)).message).toMatchObject({ id: 9, result: {} });
      expect((await health(capped)).sessions).toBe(3);
    } finally {
      await capped.stop('SIGKILL');
    }
  });
});

describe('An oversized chunked body is refused as soon as it passes 1 MiB', () => {
  it('413 arrives while the client is still sending, and the connection is closed', async () => {
    const u = new URL(bin.url);
    const outcome = await new Promise<{ status: number; sentBeforeAnswer: number; closed: boolean }>((resolve, reject) => {
      let sent = 0;
      let timer: NodeJS.Timeout | undefined;
      const req = request(
        {
          host: u.hostname,
          port: u.port,
          path: u.pathname,
          method: 'POST',
          headers: mcpHeaders({ authorization: bearer(SANDBOX_KEYS.admin), 'transfer-encoding': 'chunked' }),
        },
        (res) => {
          const sentBeforeAnswer = sent;
          clearInterval(timer);
          res.resume();
          res.on('end', () => resolve({ status: res.statusCode ?? 0, sentBeforeAnswer, closed: res.headers.connection === 'close' }));
        },
      );
      req.on('error', (e) => (sent > 0 ? undefined : reject(e)));
      const chunk = Buffer.alloc(64 * 1024, 'x');
      // Up to 64 MiB over about 10 s; the answer must come long before.
      timer = setInterval(() => {
        if (sent >= 64 * 1024 * 1024) {
          clearInterval(timer);
          req.end();
          return;
        }
        for (let i = 0; i < 6; i++) {
          req.write(chunk);
          sent += chunk.length;
        }
      }, 10);
    });
    expect(outcome.status).toBe(413);
    expect(outcome.closed).toBe(true);
    expect(outcome.sentBeforeAnswer).toBeLessThan(16 * 1024 * 1024);
    // The server is still there for everyone else.
    expect((await raw(bin.url, { headers: mcpHeaders({ authorization: bearer(SANDBOX_KEYS.admin) }), body: INITIALIZE })).status).toBe(200);
  });
});

describe('The JSON-RPC guard serves HTTP as it serves stdio', () => {
  it('a batch or a message that is no request gets -32600 with HTTP 400, a request nested 10,000 levels deep -32600 for its id; the server keeps serving', async () => {
    const nested = `${'{"a":'.repeat(10_000)}1${'}'.repeat(10_000)}`;
    for (const body of [`[${INITIALIZE}]`, '42']) {
      const r = await post(bin, SANDBOX_KEYS.admin, undefined, body);
      expect(r.status).toBe(400);
      expect(r.message).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32600 } });
    }
    const deep = await post(bin, SANDBOX_KEYS.admin, undefined, `{"jsonrpc":"2.0","id":"d","method":"initialize","params":${nested}}`);
    expect(deep.message).toMatchObject({ jsonrpc: '2.0', id: 'd', error: { code: -32600, message: expect.stringMatching(/nests deeper than 100 levels/) } });
    const sid = await open(bin, SANDBOX_KEYS.admin);
    // A response to no request, however deep, is taken and never answered.
    expect((await post(bin, SANDBOX_KEYS.admin, sid, `{"jsonrpc":"2.0","id":424242,"result":${nested}}`)).status).toBe(202);
    expect((await post(bin, SANDBOX_KEYS.admin, sid, JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }))).message).toMatchObject({ id: 1, result: {} });
  });

  it("bad params are -32602 and a request without method -32600, for the request's id, with no schema dump", async () => {
    const sid = await open(bin, SANDBOX_KEYS.admin);
    const cases: [unknown, number][] = [
      [{ jsonrpc: '2.0', id: 'p1', method: 'tools/call', params: 'x' }, -32602],
      [{ jsonrpc: '2.0', id: 'p2', method: 'tools/call', params: { name: 42, arguments: {} } }, -32602],
      [{ jsonrpc: '2.0', id: 'p3', method: 'tools/list', params: { cursor: 5 } }, -32602],
      [{ jsonrpc: '2.0', id: 'p4' }, -32600],
      [{ jsonrpc: '1.0', id: 'p5', method: 'tools/list' }, -32600],
    ];
    for (const [m, code] of cases) {
      const r = await post(bin, SANDBOX_KEYS.admin, sid, JSON.stringify(m));
      expect(r.status, JSON.stringify(m)).toBe(200);
      expect(r.message).toMatchObject({ jsonrpc: '2.0', id: (m as { id: string }).id, error: { code } });
      expect(r.message.error.message).not.toContain('"code"');
    }
    expect((await post(bin, SANDBOX_KEYS.admin, sid, '{"jsonrpc":')).message).toMatchObject({ id: null, error: { code: -32700 } });
  });
});

describe('CLI mistakes never print a key', () => {
  it('a key given as a stray argument shows as its public handle only (exit 2)', async () => {
    const r = await runBinary(['--sandbox', SANDBOX_KEYS.admin]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/Unexpected argument 'rik_live_admin001_…'/);
    expect(r.stderr).not.toContain(SANDBOX_KEYS.admin.split('_')[3]!);
  });
});
