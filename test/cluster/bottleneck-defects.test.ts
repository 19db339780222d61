import { once } from 'node:events';
import Bottleneck from 'bottleneck';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type LimiterOptions, SPEC_FIGURES, type Settlement } from '../../src/client/limiter/limiter.js';
import { RedisLimitStore } from '../../src/client/limiter/redis/limit-store.js';
import { SharedLimiter } from '../../src/client/limiter/redis/shared-limiter.js';
import { spawnTracked } from '../../scripts/harness/processes.js';
import { type TestRedis, startRedis } from '../../scripts/harness/redis.js';

let redis: TestRedis;
beforeAll(async () => {
  redis = await startRedis();
});
afterAll(() => redis.stop());

const OPTIONS: LimiterOptions = { figures: SPEC_FIGURES, refillMarginMs: 50, fallbackWindowMs: 60_000, fastYield: false };
const ANSWERED: Settlement = {
  kind: 'response',
  status: 200,
  code: undefined,
  info: { limit: undefined, remaining: undefined, resetMs: undefined, bucket: undefined, retryAfter: undefined },
};

/** An exchange that answers at once, or when `release` is called. */
function exchange(wait?: Promise<void>) {
  return async () => {
    await wait;
    return { value: 'ok', settlement: ANSWERED };
  };
}

function limiter(store: RedisLimitStore, tag: string, extra: Partial<LimiterOptions> = {}): SharedLimiter {
  return new SharedLimiter({ ...OPTIONS, ...extra, store, tag });
}

describe('bottleneck 2.19.5 on Redis 7: ERR SETTINGS_KEY_NOT_FOUND and ERR UNKNOWN_CLIENT no longer fail calls for good', () => {
  it('after a FLUSHALL our limiter re-creates its settings, where bottleneck alone fails every call', async () => {
    const store = new RedisLimitStore({ url: redis.url });
    const ours = limiter(store, 'flush');
    const theirs = new Bottleneck({ id: 'plain-flush', datastore: 'ioredis', clientOptions: { port: redis.port }, maxConcurrent: 2 });
    const signal = new AbortController().signal;
    expect(await ours.run(['read'], signal, exchange())).toBe('ok');
    expect(await theirs.schedule(async () => 'ok')).toBe('ok');
    await redis.admin.flushall();
    await expect(theirs.schedule(async () => 'ok')).rejects.toThrow('ERR SETTINGS_KEY_NOT_FOUND');
    expect(await ours.run(['read'], signal, exchange())).toBe('ok');
    expect(await redis.admin.exists(`b_${store.limiterId('flush', 'read')}_settings`)).toBe(1);
    await Promise.all([ours.close(), theirs.disconnect()]);
    await store.close();
  });

  it('when Redis forgot this client (its last-seen entry gone), our limiter registers again, where bottleneck alone fails', async () => {
    const store = new RedisLimitStore({ url: redis.url });
    const ours = limiter(store, 'forgot');
    const theirs = new Bottleneck({ id: 'plain-forgot', datastore: 'ioredis', clientOptions: { port: redis.port }, maxConcurrent: 2 });
    const signal = new AbortController().signal;
    expect(await ours.run(['write'], signal, exchange())).toBe('ok');
    expect(await theirs.schedule(async () => 'ok')).toBe('ok');
    const seen = await redis.admin.keys('*_client_last_seen');
    expect(seen.length).toBeGreaterThanOrEqual(2);
    await redis.admin.del(...seen);
    await expect(theirs.schedule(async () => 'ok')).rejects.toThrow('ERR UNKNOWN_CLIENT');
    expect(await ours.run(['write'], signal, exchange())).toBe('ok');
    await Promise.all([ours.close(), theirs.disconnect()]);
    await store.close();
  });
});

const CHILD = `
const [url, tag] = process.argv.slice(1);
const { RedisLimitStore } = await import(${JSON.stringify(new URL('../../dist/src/client/limiter/redis/limit-store.js', import.meta.url).href)});
const { SharedLimiter } = await import(${JSON.stringify(new URL('../../dist/src/client/limiter/redis/shared-limiter.js', import.meta.url).href)});
const { SPEC_FIGURES } = await import(${JSON.stringify(new URL('../../dist/src/client/limiter/limiter.js', import.meta.url).href)});
const store = new RedisLimitStore({ url, jobExpirationMs: 1500, heartbeatMs: 100 });
const limiter = new SharedLimiter({ figures: SPEC_FIGURES, refillMarginMs: 50, fallbackWindowMs: 60000, fastYield: false, store, tag });
const signal = new AbortController().signal;
let started = 0;
for (let i = 0; i < 4; i++) {
  void limiter.run(['read'], signal, () => { if (++started === 4) process.stdout.write('holding\\n'); return new Promise(() => {}); });
}
`;

describe('a process killed mid-request does not hold a concurrency slot forever (job expiration)', () => {
  it('the four slots it held come back once their expiration passes, and not before', async () => {
    const tag = 'killed';
    const child = spawnTracked(process.execPath, ['--input-type=module', '-e', CHILD, redis.url, tag], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    const deadline = Date.now() + 10_000;
    while (!out.includes('holding') && Date.now() < deadline && child.exitCode === null) await new Promise((r) => setTimeout(r, 20));
    expect(out).toContain('holding');
    const heldAt = Date.now();
    child.kill('SIGKILL');
    await once(child, 'exit');
    const store = new RedisLimitStore({ url: redis.url, heartbeatMs: 100 });
    const ours = limiter(store, tag);
    const r = await ours.run(['read'], new AbortController().signal, exchange());
    const waited = Date.now() - heldAt;
    expect(r).toBe('ok');
    // The dead process's four jobs held all four slots until their 1.5 s expiration: not before it,
    // and freed by it, far sooner than the 90 s default would (the slack is for a loaded machine).
    expect(waited).toBeGreaterThanOrEqual(1000);
    expect(waited).toBeLessThan(15_000);
    await ours.close();
    await store.close();
  });
});

describe('settings stored in Redis outlive a configuration change: each instance writes its own again', () => {
  it('a lower max_concurrent and a lower bucket cap apply at once, where bottleneck keeps the stored ones', async () => {
    const tag = 'reconfigured';
    const store = new RedisLimitStore({ url: redis.url });
    const first = limiter(store, tag);
    await first.run(['read'], new AbortController().signal, exchange());
    await first.close();
    const settings = `b_${store.limiterId(tag, 'concurrency')}_settings`;
    expect(await redis.admin.hget(settings, 'maxConcurrent')).toBe('4');
    // bottleneck alone: a limiter created with new settings finds the old ones and keeps them.
    const plain = new Bottleneck({ id: store.limiterId(tag, 'concurrency'), datastore: 'ioredis', clientOptions: { port: redis.port }, maxConcurrent: 1 });
    await plain.ready();
    expect(await redis.admin.hget(settings, 'maxConcurrent')).toBe('4');
    await plain.disconnect();

    const second = limiter(store, tag, { caps: { max_concurrent: 2, read: 10 } });
    let inFlight = 0;
    let peak = 0;
    const slow = async () => {
      inFlight++;
      peak = Math.max(peak, inFlight);
      await new Promise((r) => setTimeout(r, 60));
      inFlight--;
      return { value: 'ok', settlement: ANSWERED };
    };
    const signal = new AbortController().signal;
    await Promise.all(Array.from({ length: 6 }, () => second.run(['read'], signal, slow)));
    expect(peak).toBe(2);
    expect(await redis.admin.hget(settings, 'maxConcurrent')).toBe('2');
    expect(Number(await redis.admin.hget(`b_${store.limiterId(tag, 'read')}_settings`, 'reservoir'))).toBeLessThanOrEqual(10 - 6);
    await second.close();
    await store.close();
  });
});

describe('disconnect closes the shared connection', () => {
  it("closing the limiters and the store leaves no connection open, where bottleneck's own disconnect leaves the shared one", async () => {
    const baseline = await redis.clients();
    const conn = new Bottleneck.IORedisConnection({ clientOptions: { port: redis.port } });
    const plain = new Bottleneck({ id: 'plain-shared', connection: conn });
    await plain.schedule(async () => 'ok');
    await plain.disconnect();
    expect(await redis.clients()).toBe(baseline + 2);
    await conn.disconnect();

    const store = new RedisLimitStore({ url: redis.url });
    const a = limiter(store, 'closing-a');
    const b = limiter(store, 'closing-b');
    const signal = new AbortController().signal;
    await Promise.all([a.run(['read'], signal, exchange()), b.run(['write'], signal, exchange())]);
    expect(await redis.clients()).toBe(baseline + 2);
    await a.close();
    // Another key still uses the connection: closing one key's limiter keeps it.
    expect(await b.run(['read'], signal, exchange())).toBe('ok');
    await b.close();
    await store.close();
    await new Promise((r) => setTimeout(r, 100));
    expect(await redis.clients()).toBe(baseline);
  });

  it('with Redis unreachable, closing does not wait for it for ever', async () => {
    const store = new RedisLimitStore({ url: 'redis://127.0.0.1:1' });
    const t = Date.now();
    await store.close();
    // Not for ever: bounded by the wait for QUIT, with slack for a loaded machine (the test's own timeout is 30 s).
    expect(Date.now() - t).toBeLessThan(10_000);
    // No reconnect loop is left behind to keep the process alive.
    for (let i = 0; i < 50 && store.status() !== 'end'; i++) await new Promise((r) => setTimeout(r, 20));
    expect(store.status()).toBe('end');
  });
});

describe("a Redis limiter whose own bookkeeping fails after the request ran keeps the request's result", () => {
  it("a job whose expiration passes while its exchange runs still resolves with the exchange's value", async () => {
    const store = new RedisLimitStore({ url: redis.url, jobExpirationMs: 100 });
    const ours = limiter(store, 'expired-live');
    let release!: () => void;
    const wait = new Promise<void>((r) => (release = r));
    const pending = ours.run(['read'], new AbortController().signal, exchange(wait));
    await new Promise((r) => setTimeout(r, 300));
    release();
    expect(await pending).toBe('ok');
    await ours.close();
    await store.close();
  });
});
