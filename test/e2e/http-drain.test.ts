import type { CallToolResult } from '@modelcontextprotocol/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Sandbox, SANDBOX_KEYS, startSandbox } from '../../src/sandbox/index.js';
import { TEST_NOW } from '../../scripts/harness/sandbox.js';
import { INITIALIZE, connectHttp, mcpHeaders, raw, startHttpBinary } from '../../scripts/harness/http.js';

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
    await new Promise((r) => setTimeout(r, 100));
    const late = await raw(bin.url, { headers: mcpHeaders({ authorization: `Bearer ${SANDBOX_KEYS.admin}` }), body: INITIALIZE }).then(
      (r) => r.status,
      (e: NodeJS.ErrnoException) => e.code,
    );
    expect(late).toBe('ECONNREFUSED');
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
