import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ReplyInboxClient } from '../../src/client/index.js';
import { RedisLimitStore } from '../../src/client/limiter/redis/limit-store.js';
import type { Sandbox } from '../../src/sandbox/index.js';
import { ADMIN_KEY_ID, sandbox } from '../client/helpers.js';
import { type TestRedis, startRedis } from '../../scripts/harness/redis.js';

const WINDOW = 3000;
const READ = 10;
let redis: TestRedis;
let sb: Sandbox;

beforeAll(async () => {
  redis = await startRedis();
  sb = await sandbox({ rateWindowMs: WINDOW, bucketLimits: { read: READ } });
});
afterAll(async () => {
  await sb.close();
  await redis.stop();
});

/**
 * Redis pub/sub delivers at most once: a subscriber that reconnects loses what was published
 * meanwhile, and one whose subscriptions did not come back hears nothing. Calls queued behind
 * an empty shared bucket must still start once it is refilled.
 */
describe("A Redis-shared bucket whose instance hears none of bottleneck's messages", () => {
  it('every queued call still runs once the window refills the bucket: 25 reads over three windows, none refused', async () => {
    const store = new RedisLimitStore({ url: redis.url, heartbeatMs: 100 });
    const client = new ReplyInboxClient({ apiKey: sb.keys.admin, baseUrl: sb.baseUrl, logLevel: 'silent', sharedLimits: store, fallbackWindowMs: WINDOW });
    await client.me();
    // Every channel of this instance's limiters is left: a refill's "capacity" message reaches nobody here.
    const subscriber = (store.connection as unknown as { subscriber: { unsubscribe(): Promise<unknown> } }).subscriber;
    await subscriber.unsubscribe();
    const before = sb.limits.refusals(ADMIN_KEY_ID);
    let done = 0;
    const calls = Array.from({ length: 25 }, () => client.call('list_members', { path: { workspace: 'acme' }, query: { limit: 1 } }).then(() => done++));
    let timer: NodeJS.Timeout | undefined;
    // 25 reads at 10 a window need three windows; without the sweep none ever finishes, so ten (half
    // the test's timeout) tell the two apart with room for a loaded machine. A passing run ends when all are done.
    const late = new Promise<'late'>((r) => (timer = setTimeout(() => r('late'), 10 * WINDOW)));
    const outcome = await Promise.race([Promise.all(calls).then(() => 'all done' as const), late]);
    clearTimeout(timer);
    expect({ outcome, done }).toEqual({ outcome: 'all done', done: 25 });
    const after = sb.limits.refusals(ADMIN_KEY_ID);
    expect(after.rate_limited - before.rate_limited).toBe(0);
    await client.close();
    await store.close();
  }, 60_000);
});
