import { Agent, request } from 'node:http';
import type { CallToolResult } from '@modelcontextprotocol/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Sandbox, SANDBOX_KEYS, startSandbox } from '../../src/sandbox/index.js';
import { TEST_NOW } from '../../scripts/harness/sandbox.js';
import { INITIALIZE, type RawResponse, connectHttp, mcpHeaders, startHttpBinary } from '../../scripts/harness/http.js';
import { until } from '../helpers/until.js';

let sb: Sandbox;
beforeAll(async () => {
  sb = await startSandbox({ port: 0, now: TEST_NOW, logLevel: 'silent' });
});
afterAll(() => sb.close());

describe('SIGTERM drains the calls in flight, then exits', () => {
  it('a call under way when the signal comes still gets its result; new connections are refused; the exit code is 0', async () => {
    const bin = await startHttpBinary(['--base-url', sb.baseUrl]);
    const client = await connectHttp(bin.url, `Bearer ${SANDBOX_KEYS.admin}`);
    // From now on the API takes a while to answer: the call below is still in flight when SIGTERM arrives.
    sb.faults.faults.latency_ms = 1200;
    let answeredAt = 0;
    const call = client.callTool({ name: 'list_members', arguments: { workspace: 'acme' } }).then((r) => {
      answeredAt = Date.now();
      return r as CallToolResult;
    });
    await new Promise((r) => setTimeout(r, 300));
    bin.child.kill('SIGTERM');
    // New connections are refused while the call is still under way (a loaded machine may take a while to deliver the signal).
    expect(await refusedSoon(bin.url)).toBe('ECONNREFUSED');
    expect(answeredAt).toBe(0);
    const result = await call;
    expect(result.isError).toBeFalsy();
    expect((result.structuredContent as { data: unknown[] }).data.length).toBeGreaterThan(0);
    const code = await bin.stop();
    const exitedAt = Date.now();
    expect(code).toBe(0);
    expect(exitedAt).toBeGreaterThanOrEqual(answeredAt);
    expect(bin.stderr()).not.toMatch(/"level":(50|60)/);
    sb.faults.faults.latency_ms = 0;
    await client.close().catch(() => undefined);
  });
});

/** One POST over `agent`, and whether it went out on a connection the agent already held. */
function postOn(agent: Agent | false, url: string, headers: Record<string, string>, body: string): Promise<RawResponse & { reused: boolean }> {
  const u = new URL(url);
  return new Promise((resolve, reject) => {
    const req = request({ host: u.hostname, port: u.port, path: u.pathname, method: 'POST', headers, agent }, (res) => {
      let text = '';
      res.on('data', (c: Buffer) => (text += c.toString('utf8')));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text, reused: req.reusedSocket }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** What a new connection's initialize meets, tried until it is refused (the drain has begun) or 5 s have passed. */
async function refusedSoon(url: string): Promise<string | number | undefined> {
  const headers = mcpHeaders({ authorization: `Bearer ${SANDBOX_KEYS.admin}` });
  let seen: string | number | undefined;
  for (let i = 0; i < 250 && seen !== 'ECONNREFUSED'; i++) {
    if (i > 0) await new Promise((r) => setTimeout(r, 20));
    seen = await postOn(false, url, headers, INITIALIZE).then(
      (r) => r.status,
      (e: NodeJS.ErrnoException) => e.code,
    );
  }
  return seen;
}

/** A 2026-07-28 request: no session, its revision in the header and in the _meta envelope. */
const MODERN_TOOLS_LIST = JSON.stringify({
  jsonrpc: '2.0',
  id: 2,
  method: 'tools/list',
  params: {
    _meta: {
      'io.modelcontextprotocol/protocolVersion': '2026-07-28',
      'io.modelcontextprotocol/clientCapabilities': {},
      'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '0' },
    },
  },
});

describe('SIGTERM keeps idle keep-alive connections until the drain ends (issue 31 finding 12)', () => {
  it('a request written on an idle keep-alive connection during the drain gets 503 with Connection: close, in both eras', async () => {
    const bin = await startHttpBinary(['--base-url', sb.baseUrl]);
    const client = await connectHttp(bin.url, `Bearer ${SANDBOX_KEYS.admin}`);
    const auth = { authorization: `Bearer ${SANDBOX_KEYS.admin}` };
    const modernHeaders = mcpHeaders({ ...auth, 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/list' });
    // One connection each, answered once and then idle: a 2025 client's and a 2026-07-28 client's.
    const legacy = new Agent({ keepAlive: true, maxSockets: 1 });
    const modern = new Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const opened = await postOn(legacy, bin.url, mcpHeaders(auth), INITIALIZE);
      expect(opened.status).toBe(200);
      const listed = await postOn(modern, bin.url, modernHeaders, MODERN_TOOLS_LIST);
      expect(listed.status).toBe(200);
      // A call under way keeps the drain going while the idle connections are used.
      sb.faults.faults.latency_ms = 2_000;
      const call = client.callTool({ name: 'list_members', arguments: { workspace: 'acme' } }) as Promise<CallToolResult>;
      // Awaited below; a failure before that is the test's, not an unhandled rejection.
      call.catch(() => undefined);
      await until('the call is at the API', () => sb.limits.inFlightNow('key_admin001') === 1);
      bin.child.kill('SIGTERM');
      // The drain has begun once a new connection is refused.
      expect(await refusedSoon(bin.url)).toBe('ECONNREFUSED');
      const late = await postOn(legacy, bin.url, mcpHeaders(auth), INITIALIZE);
      const lateModern = await postOn(modern, bin.url, modernHeaders, MODERN_TOOLS_LIST);
      for (const r of [late, lateModern]) {
        expect(r.reused, 'written on the idle connection').toBe(true);
        expect(r.status).toBe(503);
        expect(r.headers.connection).toBe('close');
        expect(r.headers['retry-after']).toBe('1');
        expect(JSON.parse(r.body)).toMatchObject({ error: { message: expect.stringMatching(/shutting down/) } });
      }
      // The call under way is still answered, and the process exits 0.
      const result = await call;
      expect(result.isError).toBeFalsy();
      expect(await bin.stop()).toBe(0);
    } finally {
      sb.faults.faults.latency_ms = 0;
      legacy.destroy();
      modern.destroy();
      await client.close().catch(() => undefined);
      await bin.stop();
    }
  });
});
