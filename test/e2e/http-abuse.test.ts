import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Sandbox, SANDBOX_KEYS, startSandbox } from '../../src/sandbox/index.js';
import { TEST_NOW } from '../../scripts/harness/sandbox.js';
import { type Relay, startRelay } from './helpers.js';
import { endlessBody } from '../../scripts/harness/endless-body.js';
import { endlessBodyRun } from '../../scripts/soak/endless-body.js';
import { type HttpBinary, INITIALIZE, initializeWith, mcpHeaders, raw, sessionAnswers, startHttpBinary } from '../../scripts/harness/http.js';

/** Issue 22 items 2–4 and issue 24 item 4, against the built binary. */
let sb: Sandbox;
let relay: Relay;
const started: HttpBinary[] = [];
const madeUpKey = (i: number) => `rik_live_${`fake${i}`.padEnd(8, 'x').slice(0, 8)}_${String(i).padStart(32, '0')}`;
const meRequests = () => relay.requests.filter((r) => r.startsWith('GET /v1/me')).length;
const health = async (b: HttpBinary) => JSON.parse((await raw(b.url.replace(/\/mcp$/, '/healthz'), { method: 'GET' })).body) as { sessions: number };

async function start(args: string[]): Promise<HttpBinary> {
  const b = await startHttpBinary(args);
  started.push(b);
  return b;
}

beforeAll(async () => {
  sb = await startSandbox({ port: 0, now: TEST_NOW, logLevel: 'silent' });
  relay = await startRelay(sb.baseUrl);
});
afterAll(async () => {
  for (const b of started) await b.stop('SIGKILL');
  await relay.close();
  await sb.close();
});

describe('a refused request stops being read (issue 22 item 3)', () => {
  const cap = 512 * 1024 * 1024;
  const heads = (host: string) => [
    ['401 no key', `POST /mcp HTTP/1.1\r\nHost: ${host}\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n`],
    ['403 Host', 'POST /mcp HTTP/1.1\r\nHost: evil.example\r\nTransfer-Encoding: chunked\r\n\r\n'],
    ['404 path', `POST /other HTTP/1.1\r\nHost: ${host}\r\nTransfer-Encoding: chunked\r\n\r\n`],
    ['405 method', `PUT /mcp HTTP/1.1\r\nHost: ${host}\r\nAuthorization: Bearer ${SANDBOX_KEYS.admin}\r\nTransfer-Encoding: chunked\r\n\r\n`],
    ['healthz', `POST /healthz HTTP/1.1\r\nHost: ${host}\r\nTransfer-Encoding: chunked\r\n\r\n`],
  ];

  it('401, 403 Host, 404, 405 and /healthz answer and close: the endless body is not taken', async () => {
    const bin = await start(['--base-url', relay.url]);
    const host = new URL(bin.url).host;
    for (const [name, head] of heads(host)) {
      const r = await endlessBody(bin.url, head!, { capBytes: cap });
      process.stderr.write(`refused body (${name}): ${r.bytes_written} bytes written before close; ${r.status_line}\n`);
      expect(r.closed_by_server, name).toBe(true);
      // The answer itself may be lost when the connection is cut with the client's bytes unread.
      expect(r.status_line, name).toMatch(/^(HTTP\/1\.1 4\d\d.*)?$/);
      // What the kernel's buffers hold, not the body: far below what the server would take if it read on.
      expect(r.bytes_written, name).toBeLessThan(64 * 1024 * 1024);
    }
  });
});

describe('npm run soak: the endless-body part prints what the server answered', () => {
  it('401 no key, 403 wrong Host, 404: each status reaches the client, each connection is closed by the server', async () => {
    // Three rounds of the soak's part (its own sandbox and server each): nine refused bodies.
    for (let round = 0; round < 3; round++) {
      const r = await endlessBodyRun(8000);
      process.stderr.write(`soak endless bodies: ${JSON.stringify(r)}\n`);
      const seen = [r.no_key, r.wrong_host, r.not_found].map((x) => `${x.status} ${x.closed_by_server}`);
      expect(seen).toEqual(['401 true', '403 true', '404 true']);
    }
  }, 120_000);
});

describe('made-up keys and the failed-authentication limit (issue 22 item 4)', () => {
  it('200 made-up keys sent at once: no more reach the API than the limit (20)', async () => {
    const bin = await start(['--base-url', relay.url, '--auth-failures-per-minute', '20']);
    const before = meRequests();
    const answers = await Promise.all(
      Array.from({ length: 200 }, (_, i) => raw(bin.url, { headers: mcpHeaders({ authorization: `Bearer ${madeUpKey(i)}` }), body: INITIALIZE })),
    );
    const reached = meRequests() - before;
    process.stderr.write(`200 concurrent made-up keys: ${reached} reached the API\n`);
    expect(reached).toBeLessThanOrEqual(20);
    expect(answers.filter((a) => a.status === 429).length).toBeGreaterThanOrEqual(180);
  });

  it("an open session's calls are answered while its address is locked out by others' failures", async () => {
    const bin = await start(['--base-url', relay.url, '--auth-failures-per-minute', '20']);
    const init = await raw(bin.url, { headers: mcpHeaders({ authorization: `Bearer ${SANDBOX_KEYS.rep}` }), body: INITIALIZE });
    expect(init.status).toBe(200);
    const sid = String(init.headers['mcp-session-id']);
    for (let i = 0; i < 25; i++) await raw(bin.url, { headers: mcpHeaders({ authorization: 'Bearer nonsense' }), body: INITIALIZE });
    const locked = await raw(bin.url, { headers: mcpHeaders({ authorization: `Bearer ${SANDBOX_KEYS.admin}` }), body: INITIALIZE });
    expect(locked.status).toBe(429);
    const list = JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' });
    const own = await raw(bin.url, {
      headers: mcpHeaders({ authorization: `Bearer ${SANDBOX_KEYS.rep}`, 'mcp-session-id': sid, 'mcp-protocol-version': '2025-06-18' }),
      body: list,
    });
    expect(own.status).toBe(200);
    expect(own.body).toContain('list_leads');
  });

  it('with --trust-proxy the last X-Forwarded-For entry is the address: one locked-out client behind the proxy does not lock out another', async () => {
    const bin = await start(['--base-url', relay.url, '--auth-failures-per-minute', '3', '--trust-proxy']);
    const from = (ip: string, key: string) =>
      raw(bin.url, { headers: mcpHeaders({ authorization: `Bearer ${key}`, 'x-forwarded-for': `1.1.1.1, ${ip}` }), body: INITIALIZE });
    for (let i = 0; i < 4; i++) await from('203.0.113.7', 'nonsense');
    expect((await from('203.0.113.7', SANDBOX_KEYS.admin)).status).toBe(429);
    expect((await from('198.51.100.9', SANDBOX_KEYS.admin)).status).toBe(200);
  });
});

describe('sessions cannot be taken by a burst or hoarded (issue 22 item 2, issue 24 item 4)', () => {
  it('150 initializes of one key at once, default limits: every 200 holds a session, the rest are refused by the per-key cap with Retry-After; another key still gets in', async () => {
    const bin = await start(['--base-url', relay.url, '--max-sessions', '100', '--max-sessions-per-key', '10']);
    const answers = await Promise.all(Array.from({ length: 150 }, () => initializeWith(bin.url, SANDBOX_KEYS.admin)));
    const opened = answers.flatMap((a) => (a.status === 200 && a.sessionId ? [a.sessionId] : []));
    const refused = answers.filter((a) => a.status !== 200);
    const held = (await health(bin)).sessions;
    process.stderr.write(`burst of 150 initializes: ${opened.length} × 200, ${refused.length} refused, ${held} sessions held\n`);
    // The key is judged once for the whole burst: none is refused as a failed authentication.
    expect(refused.map((a) => `${a.status} ${a.limit}`)).toEqual(refused.map(() => '429 max-sessions-per-key'));
    for (const a of refused) expect(a.retryAfter).toBeGreaterThan(0);
    // A 200 is a session: none is closed by the burst's later initializes.
    expect(held).toBeLessThanOrEqual(10);
    expect(opened).toHaveLength(held);
    for (const sid of opened) expect(await sessionAnswers(bin.url, SANDBOX_KEYS.admin, sid)).toBe(true);
    const other = await initializeWith(bin.url, SANDBOX_KEYS.rep);
    expect(other.status).toBe(200);
  }, 120_000);

  it('token mode: clients that never DELETE cannot fill the table; each new client gets in as the oldest idle session closes', async () => {
    const bin = await start(['--sandbox', '--http-token', 'secret-token-123456', '--max-sessions', '3']);
    const auth = { authorization: 'Bearer secret-token-123456' };
    const statuses: number[] = [];
    for (let i = 0; i < 8; i++) {
      const init = await raw(bin.url, { headers: mcpHeaders(auth), body: INITIALIZE });
      statuses.push(init.status);
      // Each client completes its handshake, as every client does, then leaves without DELETE.
      // (One that never comes back holds its place for 10 s: test/unit/http-session-cap.test.ts.)
      const sid = init.headers['mcp-session-id'] as string;
      const headers = mcpHeaders({ ...auth, 'mcp-protocol-version': '2025-06-18', 'mcp-session-id': sid });
      statuses.push((await raw(bin.url, { headers, body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }) })).status);
    }
    expect(statuses).toEqual(Array(8).fill([200, 202]).flat());
    expect((await health(bin)).sessions).toBeLessThanOrEqual(3);
  });
});

describe('SSE polling (issue 24 item 5)', () => {
  it('a POST answered as SSE starts with a priming event carrying an id and the retry field', async () => {
    const bin = await start(['--sandbox', '--http-token', 'secret-token-123456']);
    const init = JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '0' } },
    });
    const r = await raw(bin.url, { headers: mcpHeaders({ authorization: 'Bearer secret-token-123456' }), body: init });
    expect(r.status).toBe(200);
    const first = r.body.split('\n\n')[0]!;
    expect(first).toMatch(/^id: \S+\nretry: 2000\ndata: $/);
  });
});
