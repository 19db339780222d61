import { once } from 'node:events';
import type { CallToolResult } from '@modelcontextprotocol/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Sandbox, SANDBOX_KEYS, startSandbox } from '../../src/sandbox/index.js';
import { spawnTracked } from '../../scripts/harness/processes.js';
import { TEST_NOW } from '../../scripts/harness/sandbox.js';
import { BIN, cleanEnv, parseToolError } from './helpers.js';
import { connectHttp, raw, startHttpBinary } from '../../scripts/harness/http.js';

/** Shutdown answers what was taken: over stdio as over HTTP, and a call that never left its queue says so. */
const WINDOW_MS = 5_000;
let sb: Sandbox;
beforeAll(async () => {
  // One write per 5 s window: a second create waits in the server's queue, well inside its deadline.
  sb = await startSandbox({ port: 0, now: TEST_NOW, logLevel: 'silent', bucketLimits: { write: 1 }, rateWindowMs: WINDOW_MS });
});
afterAll(() => sb.close());

const leadId = () => sb.store.leads.inGroup('acme').find((l) => l.state === 'active')!.id;
const tasksMarked = (marker: string) => [...sb.store.tasks.all()].filter((t) => t.notes === marker).length;

describe('stdio: SIGTERM drains the calls in flight, then exits', () => {
  it('a create_task under way when the signal comes is answered, applied once, and the exit code is 0', async () => {
    const child = spawnTracked(process.execPath, [BIN, '--log-level', 'warn'], {
      env: cleanEnv({ REPLY_INBOX_API_KEY: SANDBOX_KEYS.admin, REPLY_INBOX_BASE_URL: sb.baseUrl }),
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString('utf8')));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString('utf8')));
    const closed = once(child, 'close');
    const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
    const answered = (id: string) =>
      new Promise<void>((resolve) => {
        const check = () => (stdout.includes(`"id":"${id}"`) ? resolve() : setTimeout(check, 10));
        check();
      });
    const write = (m: unknown) => child.stdin.write(`${JSON.stringify(m)}\n`);
    write({
      jsonrpc: '2.0',
      id: 'init',
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '0' } },
    });
    await answered('init');
    write({ jsonrpc: '2.0', method: 'notifications/initialized' });
    const marker = `drain-stdio-${Date.now()}`;
    sb.faults.faults.latency_ms = 1500;
    try {
      write({
        jsonrpc: '2.0',
        id: 'task',
        method: 'tools/call',
        params: { name: 'create_task', arguments: { workspace: 'acme', lead_id: leadId(), due_date: '2026-12-01', notes: marker } },
      });
      await new Promise((r) => setTimeout(r, 300));
      child.kill('SIGTERM');
      const [code] = (await closed) as [number | null];
      clearTimeout(timer);
      const answer = stdout
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as { id: string; result?: CallToolResult })
        .find((m) => m.id === 'task');
      expect(answer, stderr).toBeDefined();
      expect(answer!.result!.isError).toBeFalsy();
      expect((answer!.result!.structuredContent as { notes: string }).notes).toBe(marker);
      expect(code).toBe(0);
      expect(tasksMarked(marker)).toBe(1);
    } finally {
      sb.faults.faults.latency_ms = 0;
    }
  });
});

describe('HTTP: a call still queued when the drain runs out is answered "cancelled", never silently dropped', () => {
  it('the queued create_task gets a cancelled tool error (not sent), nothing is applied, and the exit code is 0', async () => {
    const bin = await startHttpBinary(['--base-url', sb.baseUrl, '--drain-seconds', '1']);
    const client = await connectHttp(bin.url, `Bearer ${SANDBOX_KEYS.rep}`);
    const args = (notes: string) => ({ workspace: 'acme', lead_id: leadId(), due_date: '2026-12-01', notes });
    // The sandbox's windows start at multiples of WINDOW_MS of the clock: begin just after one starts,
    // or the next window could open while the call waits, and it would be sent before the drain ends.
    await new Promise((r) => setTimeout(r, WINDOW_MS - (Date.now() % WINDOW_MS) + 50));
    const first = (await client.callTool({ name: 'create_task', arguments: args('drain-http-first') })) as CallToolResult;
    expect(first.isError).toBeFalsy();
    const marker = `drain-http-queued-${Date.now()}`;
    // The write bucket is spent until the next window: this call waits in the server's queue.
    const queued = client.callTool({ name: 'create_task', arguments: args(marker) }, { timeout: 15_000 });
    // Signal once the server holds the call (its POST is in flight), however loaded the machine.
    const healthz = bin.url.replace(/\/mcp$/, '/healthz');
    for (let i = 0; i < 200 && JSON.parse((await raw(healthz, { method: 'GET' })).body).in_flight < 1; i++) await new Promise((r) => setTimeout(r, 25));
    await new Promise((r) => setTimeout(r, 100));
    const code = bin.stop();
    const result = (await queued) as CallToolResult;
    const err = parseToolError(result);
    expect(err.error).toMatchObject({ code: 'cancelled' });
    expect(err.error.message).toMatch(/cancelled before it was sent/);
    expect(err.nextStep).toMatch(/changed nothing: call create_task again once reconnected/);
    expect(await code).toBe(0);
    expect(tasksMarked(marker)).toBe(0);
    await client.close().catch(() => undefined);
  });
});
