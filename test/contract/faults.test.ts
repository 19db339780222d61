import { afterEach, describe, expect, it } from 'vitest';
import { parseFaults } from '../../src/sandbox/faults.js';
import { TEST_NOW, type TestApi, startTestApi } from '../../scripts/harness/sandbox.js';
import { ManualClock } from '../helpers/manual-clock.js';
import { putOnClock } from '../helpers/sandbox-clock.js';
import { eventually, turn } from '../helpers/turns.js';

let api: TestApi | undefined;
afterEach(async () => {
  await api?.close();
  api = undefined;
});

describe('docs/sandbox.md --faults: upstream_error gives 502 upstream_error on that share of upstream-bucket reads', () => {
  it('at 1.0 every upstream read fails with 502 and no read-bucket call does', async () => {
    api = await startTestApi({ faults: 'upstream_error=1' });
    const upstream = await api.get('/v1/workspaces/acme', { query: { include: 'counts' } });
    expect(upstream.status).toBe(502);
    expect(upstream.body.error.code).toBe('upstream_error');
    expect((await api.get('/v1/workspaces/acme')).status).toBe(200);
    expect(api.sandbox.faults.injected.upstream_error).toBe(1);
  });
  it('at 0.5 about half fail, reproducibly for the same seed', async () => {
    const run = async () => {
      const a = await startTestApi({ faults: 'upstream_error=0.5', bucketLimits: { upstream: 1000 } });
      const s: number[] = [];
      for (let i = 0; i < 40; i++) s.push((await a.get('/v1/workspaces/acme', { query: { include: 'counts' } })).status);
      await a.close();
      return s;
    };
    const first = await run();
    expect(await run()).toEqual(first);
    const failed = first.filter((s) => s === 502).length;
    expect(failed).toBeGreaterThan(8);
    expect(failed).toBeLessThan(32);
  });
});

describe('docs/sandbox.md --faults: reset drops connections mid-request on that share of all requests', () => {
  it('at 1.0 every request loses its connection', async () => {
    api = await startTestApi({ faults: 'reset=1' });
    await expect(api.get('/v1/me')).rejects.toThrow();
    const { reset_before, reset_after } = api.sandbox.faults.injected;
    expect(reset_before + reset_after).toBeGreaterThanOrEqual(1);
  });
  it('a reset after processing has done the work (the answer is lost, not the write)', async () => {
    api = await startTestApi({ faults: 'reset=1', seed: 1 });
    const attempts = 12;
    for (let i = 0; i < attempts; i++) await api.call('POST', '/v1/mobile/session', { key: 'rep', body: {} }).catch(() => undefined);
    const made = [...api.sandbox.store.mobileSessions.values()].length;
    expect(made).toBe(api.sandbox.faults.injected.reset_after);
    expect(made).toBeGreaterThan(0);
    expect(made).toBeLessThan(attempts);
  });
});

describe('docs/sandbox.md --faults: latency_ms adds latency', () => {
  it("a request is answered once that long has passed on the sandbox's clock, not before", async () => {
    api = await startTestApi({ faults: 'latency_ms=60000' });
    const clock = new ManualClock(Date.parse(TEST_NOW));
    putOnClock(api.sandbox, clock);
    let answered = false;
    const answer = api.get('/v1/me').finally(() => (answered = true));
    await eventually('the request waiting out its latency', () => clock.pending === 1);
    clock.advance(59_999);
    await turn();
    expect(answered).toBe(false);
    clock.advance(1);
    await eventually('the answer', () => answered);
    expect((await answer).status).toBe(200);
  });
});

describe('--faults parsing', () => {
  it('reads the three faults and refuses anything else', () => {
    expect(parseFaults('upstream_error=0.2,reset=0.05,latency_ms=30')).toEqual({ upstream_error: 0.2, reset: 0.05, latency_ms: 30 });
    expect(parseFaults('none')).toEqual({ upstream_error: 0, reset: 0, latency_ms: 0 });
    expect(() => parseFaults('explode=1')).toThrow(/unknown fault/);
    expect(() => parseFaults('reset=2')).toThrow(/between 0 and 1/);
    expect(() => parseFaults('reset')).toThrow(/name=number/);
  });
});
