import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SANDBOX_KEYS } from '../../src/sandbox/index.js';
import { TEST_NOW, type TestApi, startTestApi } from '../../scripts/harness/sandbox.js';
import { ManualClock } from '../helpers/manual-clock.js';
import { putOnClock } from '../helpers/sandbox-clock.js';
import { eventually } from '../helpers/turns.js';

let api: TestApi | undefined;
/** Each test's sandbox runs on a clock the test moves, from the start of a minute (a whole number of every window here). */
let clock: ManualClock;
beforeEach(() => {
  clock = new ManualClock(Date.parse(TEST_NOW));
});
afterEach(async () => {
  await api?.close();
  api = undefined;
});

async function startOnClock(options: Parameters<typeof startTestApi>[0] = {}): Promise<TestApi> {
  const started = await startTestApi(options);
  putOnClock(started.sandbox, clock);
  return started;
}

/** Until `n` requests wait out their latency on the clock. */
const held = (n: number) =>
  eventually(
    `${n} requests held`,
    () => clock.pending === n,
    () => clock.pending,
  );

/** The reset a header names must lie in the window the clock is in: after now, at most a window (the spec's minute) ahead. */
function resetIsThisWindow(r: { headers: Headers }) {
  const reset = Number(r.headers.get('x-ratelimit-reset'));
  expect(Number.isInteger(reset)).toBe(true);
  expect(reset * 1000).toBeGreaterThan(clock.now());
  expect(reset * 1000).toBeLessThanOrEqual(clock.now() + 60_000);
}

describe('Limits: every response carries x-ratelimit-limit, x-ratelimit-remaining (integers) and x-ratelimit-reset (Unix seconds)', () => {
  it('on success and on error responses of a known key', async () => {
    api = await startOnClock();
    for (const r of [await api.get('/v1/me'), await api.get('/v1/workspaces/acme/members', { query: { bogus: 1 } })]) {
      expect(r.headers.get('x-ratelimit-limit')).toMatch(/^\d+$/);
      expect(r.headers.get('x-ratelimit-remaining')).toMatch(/^\d+$/);
      resetIsThisWindow(r);
    }
  });
  it('on 401 and 403 answers given before any key is known (no header, a made-up key, a revoked key, a test key), and on an unknown path', async () => {
    api = await startOnClock();
    const madeUp = `rik_live_madeup01_${'0'.repeat(32)}`;
    const answers = [
      [401, await api.get('/v1/me', { key: null })],
      [401, await api.get('/v1/me', { authorization: `Bearer ${madeUp}` })],
      [401, await api.get('/v1/workspaces/acme/leads', { key: 'revoked' })],
      [403, await api.get('/v1/me', { key: 'test' })],
      [401, await api.call('POST', '/v1/mobile/session', { key: null, body: {} })],
      [404, await api.call('GET', '/v1/nowhere')],
    ] as const;
    for (const [status, r] of answers) {
      expect(r.status).toBe(status);
      expect(r.headers.get('x-ratelimit-limit')).toMatch(/^\d+$/);
      // Nothing was spent: no key was known to spend it.
      expect(r.headers.get('x-ratelimit-remaining')).toBe(r.headers.get('x-ratelimit-limit'));
      resetIsThisWindow(r);
    }
    // The bucket is the one the request names: a write is reported on the write bucket.
    expect(answers[4][1].headers.get('x-ratelimit-limit')).toBe('60');
  });
  it('the read bucket allows 120 per minute per key, the write bucket 60, the upstream bucket 10', async () => {
    api = await startOnClock();
    const read = await api.get('/v1/me');
    expect(read.headers.get('x-ratelimit-limit')).toBe('120');
    expect(read.headers.get('x-ratelimit-remaining')).toBe('119');
    const write = await api.call('POST', '/v1/mobile/session', { body: {} });
    expect(write.headers.get('x-ratelimit-limit')).toBe('60');
    const upstream = await api.get('/v1/workspaces/acme', { query: { include: 'counts' } });
    expect(upstream.headers.get('x-ratelimit-limit')).toBe('10');
  });
});

describe('me: rate_limits reports the figures the service enforces', () => {
  it("the spec's figures by default, and the sandbox's own when started with others", async () => {
    api = await startOnClock();
    expect((await api.get('/v1/me')).body.rate_limits).toEqual({
      read_per_minute: 120,
      write_per_minute: 60,
      thread_per_minute: 30,
      upstream_per_minute: 10,
      max_concurrent: 4,
    });
    await api.close();
    api = await startOnClock({ bucketLimits: { read: 7, max_concurrent: 2 } });
    expect((await api.get('/v1/me')).body.rate_limits).toMatchObject({ read_per_minute: 7, max_concurrent: 2 });
  });
});

describe('Limits: exceeding a bucket gives 429 rate_limited with a retry-after header in whole seconds', () => {
  it('the request after the last allowed one is refused, and the window reset lets requests through again', async () => {
    const windowMs = 1000;
    api = await startOnClock({ rateWindowMs: windowMs, bucketLimits: { read: 5 } });
    const statuses: number[] = [];
    let refused: { status: number; headers: Headers; body: any } | undefined;
    for (let i = 0; i < 6; i++) {
      const r = await api.get('/v1/me');
      statuses.push(r.status);
      if (r.status === 429) refused = r;
    }
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
    expect(refused!.body.error.code).toBe('rate_limited');
    expect(refused!.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(refused!.body.error.retry_after).toBe(Number(refused!.headers.get('retry-after')));
    expect(refused!.headers.get('x-ratelimit-remaining')).toBe('0');
    expect(api.sandbox.limits.refusals('key_admin001')).toEqual({ rate_limited: 1, too_many_concurrent: 0 });
    // The last moment of the window still refuses; its end lets requests through again.
    clock.advance(windowMs - 1);
    expect((await api.get('/v1/me')).status).toBe(429);
    clock.advance(1);
    expect((await api.get('/v1/me')).status).toBe(200);
  });

  it("buckets are per key and per bucket: one key's empty read bucket leaves other keys and its write bucket alone", async () => {
    api = await startOnClock({ bucketLimits: { read: 2 } });
    await api.get('/v1/me');
    await api.get('/v1/me');
    expect((await api.get('/v1/me')).status).toBe(429);
    expect((await api.get('/v1/me', { key: 'rep' })).status).toBe(200);
    expect((await api.call('POST', '/v1/mobile/session', { body: {} })).status).toBe(201);
  });

  it('a refused request is not processed and does not spend the bucket further', async () => {
    api = await startOnClock({ bucketLimits: { write: 1 } });
    const first = await api.call('POST', '/v1/mobile/session', { key: 'rep', body: { device_name: 'one' } });
    expect(first.status).toBe(201);
    const second = await api.call('POST', '/v1/mobile/session', { key: 'rep', body: { device_name: 'two' } });
    expect(second.status).toBe(429);
    const sessions = [...api.sandbox.store.mobileSessions.values()].filter((s) => s.user_id === 'usr_ben');
    expect(sessions.map((s) => s.device_name)).toEqual(['one']);
  });
});

describe('Limits: concurrency, 4 requests in flight per key; more gives 429 too_many_concurrent', () => {
  it('six parallel slow requests: four served, two refused with retry-after', async () => {
    // The four served are held until the clock passes their latency: none can end before the others arrive.
    api = await startOnClock({ faults: 'latency_ms=300' });
    let answered = 0;
    const all = Promise.all(Array.from({ length: 6 }, () => api!.get('/v1/me').finally(() => answered++)));
    await eventually('two answered at once', () => answered === 2);
    await held(4);
    // Another key has its own four slots: its request is held beside them, not refused.
    const other = api.get('/v1/me', { key: 'rep' });
    await held(5);
    clock.advance(300);
    const results = await all;
    const ok = results.filter((r) => r.status === 200);
    const refused = results.filter((r) => r.status === 429);
    expect(ok).toHaveLength(4);
    expect(refused).toHaveLength(2);
    for (const r of refused) {
      expect(r.body.error.code).toBe('too_many_concurrent');
      expect(r.headers.get('retry-after')).toMatch(/^\d+$/);
    }
    expect(api.sandbox.limits.refusals('key_admin001').too_many_concurrent).toBe(2);
    expect((await other).status).toBe(200);
  });
});

describe("Limits: the sandbox's --rate-limits off disables buckets and the concurrency cap", () => {
  it('no 429 and no rate headers', async () => {
    api = await startOnClock({ rateLimits: false, bucketLimits: { read: 1 }, faults: 'latency_ms=100' });
    const all = Promise.all(Array.from({ length: 8 }, () => api!.get('/v1/me')));
    // All eight are held at once: no cap turned any away.
    await held(8);
    clock.advance(100);
    const results = await all;
    expect(results.map((r) => r.status)).toEqual(Array(8).fill(200));
    expect(results[0]!.headers.get('x-ratelimit-limit')).toBeNull();
  });
});

describe('Limits: the thread figure (30 per minute) meters the conversation reads, besides the read bucket (our reading: docs/spec-gaps.md)', () => {
  it('the headers report the most constrained bucket, and the thread bucket refuses when empty', async () => {
    api = await startOnClock({ bucketLimits: { thread: 1 } });
    const lead = api.sandbox.store.leads.inGroup('acme')[0];
    if (!lead) throw new Error('the seed has no acme lead');
    const path = `/v1/workspaces/acme/leads/${lead.id}/messages`;
    const first = await api.get(path);
    expect(first.headers.get('x-ratelimit-bucket')).toBe('thread');
    expect(first.headers.get('x-ratelimit-remaining')).toBe('0');
    const second = await api.get(path);
    expect(second.status).toBe(429);
    expect(second.body.error.code).toBe('rate_limited');
    // One read spent by the served call; the refused one spent nothing.
    expect((await api.get('/v1/me')).headers.get('x-ratelimit-remaining')).toBe(String(120 - 2));
  });
});

describe('Limits: unauthenticated requests are refused before any bucket is spent', () => {
  it('a 401 spends nothing of the key', async () => {
    api = await startOnClock({ bucketLimits: { read: 2 } });
    await api.get('/v1/me', { authorization: `Bearer ${SANDBOX_KEYS.admin.slice(0, -1)}x` });
    await api.get('/v1/me', { key: null });
    expect((await api.get('/v1/me')).headers.get('x-ratelimit-remaining')).toBe('1');
  });
});
