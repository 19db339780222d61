import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ReplyInboxClient } from '../../src/client/index.js';
import { RedisLimitStore } from '../../src/client/limiter/redis/limit-store.js';
import type { Sandbox } from '../../src/sandbox/index.js';
import { ADMIN_KEY_ID, sandbox } from '../client/helpers.js';
import { atWindowStart } from '../helpers/until.js';
import { type TestRedisCluster, startRedisCluster } from '../../scripts/harness/redis.js';

// 3 s windows: the 30 reads each allows take 10 calls a second, which a loaded machine still makes.
// The clients' fallback window is the server's, as in use (60 s there): an instance that saw no
// answer in a window, its calls all queued behind the other's, turns after one window, not twenty.
const WINDOW = 3000;
const READ = 30;
let cluster: TestRedisCluster;
let sb: Sandbox;
const served: number[] = [];

beforeAll(async () => {
  cluster = await startRedisCluster();
  sb = await sandbox({ rateWindowMs: WINDOW, bucketLimits: { read: READ } });
  const spend = sb.limits.spend.bind(sb.limits);
  sb.limits.spend = (who, buckets, now) => {
    const refused = spend(who, buckets, now);
    if (!refused && who === ADMIN_KEY_ID) served.push(now ?? Date.now());
    return refused;
  };
});
afterAll(async () => {
  await sb.close();
  await cluster.stop();
});

describe("Redis Cluster: a key's names share one {hash tag}, so its limiters and markers live in one slot", () => {
  it("two instances given the seed nodes share the key's read bucket: zero 429s, every call answered", async () => {
    const stores = [new RedisLimitStore({ url: cluster.url, heartbeatMs: 100 }), new RedisLimitStore({ url: cluster.url, heartbeatMs: 100 })];
    const clients = stores.map(
      (store) => new ReplyInboxClient({ apiKey: sb.keys.admin, baseUrl: sb.baseUrl, logLevel: 'silent', sharedLimits: store, fallbackWindowMs: WINDOW }),
    );
    const phases = new Phases(clients);
    await phases.within('the key probe of both instances', () => Promise.all(clients.map((c) => c.me())));
    await atWindowStart(WINDOW);
    const from = Date.now();
    const until = from + 3 * WINDOW;
    const failed: string[] = [];
    // A call started just before the end waits at most one window for its token.
    await phases.within('three windows of reads from ten loops', () =>
      Promise.all(
        clients.flatMap((c) =>
          Array.from({ length: 5 }, async () => {
            while (Date.now() < until)
              await c.call('list_members', { path: { workspace: 'acme' }, query: { limit: 1 } }).catch((e: Error) => failed.push(e.message));
          }),
        ),
      ),
    );
    const to = Date.now();
    expect(failed).toEqual([]);
    expect(sb.limits.refusals(ADMIN_KEY_ID)).toEqual({ rate_limited: 0, too_many_concurrent: 0 });
    const first = Math.ceil(from / WINDOW);
    const windows = new Array<number>(Math.floor(to / WINDOW) - first).fill(0);
    for (const t of served) {
      const w = Math.floor(t / WINDOW) - first;
      if (w >= 0 && w < windows.length) windows[w]!++;
    }
    expect(windows.length).toBeGreaterThanOrEqual(2);
    // Counts, not throughput: the share of a window a loaded machine fills is a benchmark's figure.
    for (const n of windows) expect(n).toBeLessThanOrEqual(READ);
    expect(windows.reduce((a, b) => a + b, 0)).toBeGreaterThan(0);
    // Every name of this key, bottleneck's and our refill markers alike, is held by one node.
    const tag = stores[0]!.tagOf(sb.keys.admin);
    const names = ['read', 'write', 'upstream', 'thread', 'concurrency'].flatMap((p) => [
      `b_${stores[0]!.limiterId(tag, p)}_settings`,
      `b_${stores[0]!.limiterId(tag, p)}_job_weights`,
    ]);
    names.push(`ri:v1:{${tag}}:turn:w${first * WINDOW}`);
    const nodes = new Set(await Promise.all(names.map((n) => cluster.nodeOf(n))));
    expect(nodes.size).toBe(1);
    await phases.within('closing', async () => {
      await Promise.all(clients.map((c) => c.close()));
      await Promise.all(stores.map((s) => s.close()));
    });
  }, 90_000);
});

/**
 * Each step of the test gets a deadline far past what it needs on a loaded machine; one that
 * passes it fails with the step's name, how long it ran, and each instance's limiter state,
 * instead of the bare "timed out" that says nothing of where a call waited.
 */
class Phases {
  constructor(private readonly clients: ReplyInboxClient[]) {}

  async within<T>(step: string, run: () => Promise<T>, ms = 25_000): Promise<T> {
    const started = Date.now();
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        const states = this.clients.map((c) => JSON.stringify(c.limiterState()));
        reject(new Error(`${step} still running after ${Date.now() - started} ms; limiter states: ${states.join(' / ')}`));
      }, ms);
    });
    try {
      return await Promise.race([run(), late]);
    } finally {
      clearTimeout(timer);
    }
  }
}
