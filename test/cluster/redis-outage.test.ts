import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ReplyInboxClient } from '../../src/client/index.js';
import { RedisLimitStore } from '../../src/client/limiter/redis/limit-store.js';
import { SharedLimiter } from '../../src/client/limiter/redis/shared-limiter.js';
import { SPEC_FIGURES, type Settlement } from '../../src/client/limiter/types.js';
import type { Sandbox } from '../../src/sandbox/index.js';
import { ADMIN_KEY_ID, sandbox } from '../client/helpers.js';
import { startHttpBinary } from '../../scripts/harness/http.js';
import { type TestRedis, startRedis } from '../../scripts/harness/redis.js';

let sb: Sandbox;
/** Requests of the admin key the sandbox counted. */
let sent = 0;
beforeAll(async () => {
  sb = await sandbox();
  const spend = sb.limits.spend.bind(sb.limits);
  sb.limits.spend = (who, buckets, now) => {
    if (who === ADMIN_KEY_ID) sent++;
    return spend(who, buckets, now);
  };
});
afterAll(() => sb.close());

const ANSWERED: Settlement = {
  kind: 'response',
  status: 200,
  code: undefined,
  info: { limit: undefined, remaining: 100, resetMs: Date.now() + 60_000, bucket: undefined, retryAfter: undefined },
};

describe('Every Redis key the limiter writes expires', () => {
  it('keys of made-up API keys, used or never used, all carry a TTL', async () => {
    const redis = await startRedis();
    try {
      const store = new RedisLimitStore({ url: redis.url });
      const signal = new AbortController().signal;
      for (let i = 0; i < 6; i++) {
        // Half of them never send a request: bottleneck registers them all the same.
        const l = new SharedLimiter({
          figures: SPEC_FIGURES,
          refillMarginMs: 50,
          fallbackWindowMs: 60_000,
          fastYield: false,
          store,
          tag: store.tagOf(`rik_live_madeup${i}`),
        });
        if (i % 2 === 0) await l.run(['read'], signal, async () => ({ value: 1, settlement: ANSWERED }));
        else await l.run([], signal, async () => ({ value: 1, settlement: { kind: 'not_sent' } as Settlement }));
        await l.close();
      }
      await store.close();
      const keys = await redis.admin.keys('*');
      expect(keys.length).toBeGreaterThan(6 * 5);
      const ttls = await Promise.all(keys.map(async (k) => [k, await redis.admin.pttl(k)] as const));
      expect(ttls.filter(([, t]) => t < 0)).toEqual([]);
    } finally {
      await redis.stop();
    }
  });
});

describe('A Redis outage: calls fail fast, not sent, and /healthz answers 503', () => {
  let redis: TestRedis;
  beforeAll(async () => {
    redis = await startRedis();
  });

  it('a call while Redis is down answers "rate limiter unavailable: not sent" within the grace, and the API sees nothing', async () => {
    const store = new RedisLimitStore({ url: redis.url, downGraceMs: 300 });
    const c = new ReplyInboxClient({ apiKey: sb.keys.admin, baseUrl: sb.baseUrl, logLevel: 'silent', sharedLimits: store });
    await c.me();
    const before = sent;
    const bin = await startHttpBinary(['--base-url', sb.baseUrl, '--redis', redis.url]);
    try {
      const health = bin.url.replace(/\/mcp$/, '/healthz');
      expect((await fetch(health)).status).toBe(200);
      await redis.stop();
      const started = Date.now();
      const err = await c.call('list_members', { path: { workspace: 'acme' }, deadlineMs: 30_000, cache: 'refresh' }).catch((e: unknown) => e);
      expect(err).toMatchObject({ code: 'limiter_unavailable', sent: 'no' });
      expect((err as Error).message).toContain('rate limiter unavailable: not sent');
      // Answered on the 300 ms grace, not the call's 30 s deadline (the slack is for a loaded machine).
      expect(Date.now() - started).toBeLessThan(10_000);
      expect(sent).toBe(before);
      const down = await fetch(health);
      expect(down.status).toBe(503);
      expect(await down.json()).toMatchObject({ status: 'unavailable', unavailable: expect.stringContaining('rate limiter unavailable') });
    } finally {
      await bin.stop();
      await c.close();
      await store.close();
    }
  });
});
