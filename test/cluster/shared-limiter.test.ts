import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type LimiterEvent, ReplyInboxClient } from '../../src/client/index.js';
import { RedisLimitStore } from '../../src/client/limiter/redis/limit-store.js';
import type { Sandbox } from '../../src/sandbox/index.js';
import { ADMIN_KEY_ID, sandbox } from '../client/helpers.js';
import { atWindowStart } from '../helpers/until.js';
import { type TestRedis, startRedis } from '../../scripts/harness/redis.js';

// Whole seconds: x-ratelimit-reset is in Unix seconds, so a shorter window could not be told apart.
const WINDOW = 1000;
const READ = 30;
let redis: TestRedis;
let sb: Sandbox;
/** When the sandbox counted each read it served (it refuses the rest with 429). */
const served: number[] = [];
/** When it refused one with 429. */
const refused: number[] = [];

/** One run of two instances driven past the read bucket, which the first two rules look at. */
let run: { from: number; to: number; ok: number; okBy: number[]; failed: string[]; refusals: number; events: LimiterEvent[][] };

beforeAll(async () => {
  redis = await startRedis();
  sb = await sandbox({ rateWindowMs: WINDOW, bucketLimits: { read: READ } });
  const spend = sb.limits.spend.bind(sb.limits);
  sb.limits.spend = (who, buckets, now) => {
    const refusal = spend(who, buckets, now);
    if (who === ADMIN_KEY_ID) (refusal ? refused : served).push(now ?? Date.now());
    return refusal;
  };
  const xs = [instance(), instance()];
  await Promise.all(xs.map((x) => x.client.me()));
  await atWindowStart(WINDOW);
  const from = Date.now();
  const { ok, okBy, failed } = await drive(xs, 6, from + 3 * WINDOW);
  run = { from, to: Date.now(), ok, okBy, failed, refusals: sb.limits.refusals(ADMIN_KEY_ID).rate_limited, events: xs.map((x) => x.events) };
  await closeAll(xs);
});
afterAll(async () => {
  await sb.close();
  await redis.stop();
});

interface Instance {
  client: ReplyInboxClient;
  store: RedisLimitStore;
  events: LimiterEvent[];
}

/** One "instance": its own Redis connection and client for the admin key, as a separate process would have. */
function instance(): Instance {
  const store = new RedisLimitStore({ url: redis.url, heartbeatMs: 100 });
  const events: LimiterEvent[] = [];
  const client = new ReplyInboxClient({
    apiKey: sb.keys.admin,
    baseUrl: sb.baseUrl,
    logLevel: 'silent',
    sharedLimits: store,
    onLimiterEvent: (e) => events.push(e),
  });
  return { client, store, events };
}

async function closeAll(xs: Instance[]): Promise<void> {
  await Promise.all(xs.map((x) => x.client.close()));
  await Promise.all(xs.map((x) => x.store.close()));
}

/** Each worker calls list_members until `until`; returns how many calls succeeded (in all, by instance) and the failures. */
async function drive(xs: Instance[], workersEach: number, until: number): Promise<{ ok: number; okBy: number[]; failed: string[] }> {
  const okBy = xs.map(() => 0);
  const failed: string[] = [];
  await Promise.all(
    xs.flatMap((x, i) =>
      Array.from({ length: workersEach }, async () => {
        while (Date.now() < until) {
          try {
            await x.client.call('list_members', { path: { workspace: 'acme' }, query: { limit: 1 } });
            okBy[i]!++;
          } catch (e) {
            failed.push((e as Error).message);
          }
        }
      }),
    ),
  );
  return { ok: okBy.reduce((a, b) => a + b, 0), okBy, failed };
}

/** Reads served in each whole window between from and to. */
function perWindow(from: number, to: number): number[] {
  const first = Math.ceil(from / WINDOW);
  const last = Math.floor(to / WINDOW);
  const counts = new Array<number>(Math.max(0, last - first)).fill(0);
  for (const t of served) {
    const w = Math.floor(t / WINDOW) - first;
    if (w >= 0 && w < counts.length) counts[w]!++;
  }
  return counts;
}

describe('Redis-shared limiter: instances sharing one key spend its read bucket together', () => {
  it('zero 429s at the API, every call answered and counted once, both instances served, never more than 4 in flight', () => {
    // Counts, not throughput: how much of each window a loaded machine fills is a benchmark's
    // figure (npm run bench -- --only shared); that each window is filled exactly is judged on a
    // clock the test moves (window-counts.test.ts).
    expect(run.failed).toEqual([]);
    expect(run.refusals).toBe(0);
    expect(refused.filter((t) => t >= run.from)).toEqual([]);
    const windows = perWindow(run.from, run.to);
    expect(windows.length).toBeGreaterThanOrEqual(2);
    for (const n of windows) expect(n).toBeLessThanOrEqual(READ);
    // Every call that succeeded was served once by the API, none twice.
    expect(served.filter((t) => t >= run.from && t <= run.to)).toHaveLength(run.ok);
    for (const [i, n] of run.okBy.entries()) expect(n, `instance ${i}`).toBeGreaterThan(0);
    // Each instance alone would have taken a whole bucket per window: together they took one.
    expect(run.ok).toBeLessThanOrEqual((windows.length + 2) * READ);
    expect(sb.limits.peakInFlight(ADMIN_KEY_ID)).toBeLessThanOrEqual(4);
  });
});

describe('Redis-shared limiter: the refill after each window happens once per window, not once per instance', () => {
  it('for every window that ended, exactly one instance refilled and the other found it done', () => {
    const refills = run.events.flat().filter((e): e is Extract<LimiterEvent, { type: 'refill' }> => e.type === 'refill' && e.windowEnd !== null);
    const byWindow = new Map<number, string[]>();
    for (const e of refills) byWindow.set(e.windowEnd!, [...(byWindow.get(e.windowEnd!) ?? []), e.shared!]);
    expect(byWindow.size).toBeGreaterThanOrEqual(2);
    for (const outcomes of byWindow.values()) expect(outcomes.filter((o) => o === 'performed')).toHaveLength(1);
    expect(refills.some((e) => e.shared === 'done_elsewhere')).toBe(true);
  });
});

describe('Redis-shared limiter: Redis flushed or restarted in the middle of a run', () => {
  it('the instances recover without a restart: every call succeeds and the 429s stay within the window of the loss', async () => {
    const xs = [instance(), instance()];
    await Promise.all(xs.map((x) => x.client.me()));
    await atWindowStart(WINDOW);
    const from = Date.now();
    const earlier = refused.length;
    let restarted = Number.POSITIVE_INFINITY;
    setTimeout(() => void redis.admin.flushall(), 1.3 * WINDOW);
    setTimeout(() => void redis.restart().then(() => (restarted = Date.now())), 2.3 * WINDOW);
    const { failed } = await drive(xs, 6, from + 5 * WINDOW);
    expect(failed).toEqual([]);
    // The state in Redis is gone twice, and each re-created bucket starts full until the first
    // answers clamp it: how many calls meet it first depends on how many were under way, but
    // every 429 falls between the first loss and the end of the window after the second.
    const refusals = refused.slice(earlier).map((t) => Math.floor((t - from) / WINDOW));
    expect(refusals.filter((w) => w < 1 || w > 3)).toEqual([]);
    // After the restart the API serves reads again, and refuses none past the window after it.
    expect(served.some((t) => t > restarted)).toBe(true);
    await closeAll(xs);
  });
});

describe('Redis-shared limiter: names in Redis come from a hash of the key, inside one {hash tag}', () => {
  it('every key this API key left in Redis carries the same tag and none carries the key', async () => {
    const x = instance();
    await x.client.call('list_members', { path: { workspace: 'acme' } });
    const tag = x.store.tagOf(sb.keys.admin);
    const names = await redis.admin.keys('*');
    const ours = names.filter((n) => n.includes(tag));
    expect(ours.length).toBeGreaterThanOrEqual(5);
    // Redis Cluster hashes only the first {…} of a name: every name of this key lands in one slot.
    for (const n of ours) expect(/\{([^}]*)\}/.exec(n)?.[1]).toBe(tag);
    const secret = sb.keys.admin.split('_').at(-1)!;
    for (const n of names) expect(n).not.toContain(secret);
    await closeAll([x]);
  });
});
