import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { LimiterEvent } from '../../src/client/index.js';
import { RedisLimitStore } from '../../src/client/limiter/redis/limit-store.js';
import type { Sandbox } from '../../src/sandbox/index.js';
import { ADMIN_KEY_ID, client, sandbox, type Watched } from '../client/helpers.js';
import { ManualClock } from '../helpers/manual-clock.js';
import { until } from '../helpers/until.js';
import { type TestRedis, startRedis } from '../../scripts/harness/redis.js';

const WINDOW = 1000;
const READ = 5;
/**
 * The sandbox's windows and the limiters run on one clock that only the test moves. It starts
 * 30 s ahead of the wall clock, so a timer of the wall clock (which the limiter must not time
 * a window by) does not fire within the test either, while a refill on it still falls within
 * a call's deadline (50 s, kept on the wall clock).
 */
const clock = new ManualClock((Math.floor(Date.now() / WINDOW) + 30) * WINDOW);
let redis: TestRedis;
let sb: Sandbox;
/** When (on that clock) the sandbox served a read of the admin key, and when it refused one. */
const served: number[] = [];
const refused: number[] = [];

beforeAll(async () => {
  redis = await startRedis();
  sb = await sandbox({ rateWindowMs: WINDOW, bucketLimits: { read: READ } });
  sb.limits.clock = clock.now;
  const spend = sb.limits.spend.bind(sb.limits);
  sb.limits.spend = (who, buckets, now) => {
    const refusal = spend(who, buckets, now);
    if (who === ADMIN_KEY_ID && buckets.includes('read')) (refusal ? refused : served).push(now ?? clock.now());
    return refusal;
  };
});
// Each test starts from an empty Redis: what a test left there (a reservoir spent in a window of its own) is not the next one's.
beforeEach(() => redis.admin.flushall());
afterAll(async () => {
  await sb.close();
  await redis.stop();
});

const windowOf = (t: number) => Math.floor(t / WINDOW);
const servedIn = (w: number) => served.filter((t) => windowOf(t) === w).length;
const read = (w: Watched) => w.client.call('list_members', { path: { workspace: 'acme' }, query: { limit: 1 } });
const queuedReads = (w: Watched) => w.client.limiterState().buckets.find((b) => b.bucket === 'read')!.queued;
const refills = (w: Watched, end: number) => w.events.filter((e): e is Extract<LimiterEvent, { type: 'refill' }> => e.type === 'refill' && e.windowEnd === end);

/** Past the next window's start and the limiters' refill margin, every timer due by then fired. */
function nextWindow(): void {
  clock.advance((windowOf(clock.now()) + 1) * WINDOW + 100 - clock.now());
}

/**
 * `lead` spends all but one read of a window. The window ends and the limiters' timers are late
 * (the clock moves on without firing them): `late` takes the token left over, is sent after the
 * end, so the API counts it in the next window, and is answered before the timers fire. Then
 * `lead` sends a whole bucket: the window already holds the late call, so one of the burst must
 * wait for the window after.
 */
async function lateCallThenBurst(lead: Watched, late: Watched, shared: boolean): Promise<void> {
  const refusedBefore = refused.length;
  const refusals = () => refused.slice(refusedBefore);
  await Promise.all([lead.client.me(), late.client.me()]);
  nextWindow();
  const first = windowOf(clock.now());
  const end = (first + 1) * WINDOW;
  await Promise.all(Array.from({ length: READ - 1 }, () => read(lead)));
  clock.skip(end + 10 - clock.now());
  await read(late);
  const next = first + 1;
  expect(servedIn(next)).toBe(1);
  clock.advance(100);
  // The in-process limiter refilled when the late answer came; a shared one refills in Redis, then says so.
  if (shared)
    await until(
      'the refill after the window that ended',
      () => refills(lead, end).length > 0,
      () => lead.events,
    );
  const burst = Promise.all(Array.from({ length: READ }, () => read(lead)));
  // Left unawaited when a check below fails: the close then cancels them.
  burst.catch(() => undefined);
  const met429 = () => lead.rejected().rate_limited > 0 || refusals().length > 0;
  await until(
    'the burst to fill the window and one call to wait',
    () => met429() || (servedIn(next) === READ && queuedReads(lead) === 1),
    () => ({ served: servedIn(next), refused: refusals().length, state: lead.client.limiterState() }),
  );
  expect(refusals()).toEqual([]);
  expect(lead.rejected()).toEqual({ rate_limited: 0, too_many_concurrent: 0 });
  nextWindow();
  await burst;
  expect(servedIn(next)).toBe(READ);
  expect(servedIn(next + 1)).toBe(1);
  expect(refusals()).toEqual([]);
}

describe('Redis-shared limiter: two instances spend a burst of three buckets and more, one window at a time', () => {
  it('every whole window holds exactly the limit, the rest waits for the next one: no 429, no token left unused', async () => {
    const refusedBefore = refused.length;
    const stores = [new RedisLimitStore({ url: redis.url, heartbeatMs: 100 }), new RedisLimitStore({ url: redis.url, heartbeatMs: 100 })];
    const xs = stores.map((sharedLimits) => client(sb, { clock, sharedLimits }));
    try {
      await Promise.all(xs.map((x) => x.client.me()));
      nextWindow();
      const first = windowOf(clock.now());
      const n = 3 * READ + 2;
      let answered = 0;
      const calls = Promise.all(Array.from({ length: n }, (_, i) => read(xs[i % 2]!).finally(() => answered++)));
      calls.catch(() => undefined);
      const met429 = () => xs.some((x) => x.rejected().rate_limited > 0) || refused.length > refusedBefore;
      const queued = () => xs.reduce((q, x) => q + queuedReads(x), 0);
      // Turn the window once it is spent and every call left waits in a queue: never by the wall clock.
      while (answered < n && !met429()) {
        const w = windowOf(clock.now());
        await until(
          'the window spent and the rest queued, or every call answered',
          () => met429() || answered === n || (servedIn(w) === READ && answered === (w - first + 1) * READ && queued() === n - answered),
          () => ({ served: servedIn(w), answered, queued: queued() }),
        );
        if (answered < n && !met429()) nextWindow();
      }
      expect(refused.slice(refusedBefore)).toEqual([]);
      await calls;
      expect([0, 1, 2, 3].map((i) => servedIn(first + i))).toEqual([READ, READ, READ, 2]);
      for (const x of xs) expect(x.rejected()).toEqual({ rate_limited: 0, too_many_concurrent: 0 });
    } finally {
      await Promise.all(xs.map((x) => x.client.close()));
      await Promise.all(stores.map((s) => s.close()));
    }
  });
});

describe('Limits: a call sent after the server window ended, before the late refill, counts against the new window', () => {
  it('Redis-shared: the late call of one instance leaves the other a window of the limit less one, no 429', async () => {
    const stores = [new RedisLimitStore({ url: redis.url, heartbeatMs: 100 }), new RedisLimitStore({ url: redis.url, heartbeatMs: 100 })];
    const [lead, late] = stores.map((sharedLimits) => client(sb, { clock, sharedLimits }));
    try {
      await lateCallThenBurst(lead!, late!, true);
    } finally {
      await Promise.all([lead!.client.close(), late!.client.close()]);
      await Promise.all(stores.map((s) => s.close()));
    }
  });

  it('Redis-shared, one instance: its own late call, whose answer turns the window, counts in the new one, no 429', async () => {
    nextWindow();
    const store = new RedisLimitStore({ url: redis.url, heartbeatMs: 100 });
    const one = client(sb, { clock, sharedLimits: store });
    try {
      await lateCallThenBurst(one, one, true);
    } finally {
      await one.client.close();
      await store.close();
    }
  });

  it('in-process: the answer of the late call turns the window itself, and counts in the new one, no 429', async () => {
    nextWindow();
    const one = client(sb, { clock });
    try {
      await lateCallThenBurst(one, one, false);
    } finally {
      await one.client.close();
    }
  });
});
