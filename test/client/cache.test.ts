import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/index.js';
import { ADMIN_KEY_ID, client, sandbox } from './helpers.js';

let sb: Sandbox;
beforeAll(async () => {
  sb = await sandbox({ rateWindowMs: 3_600_000 });
});
afterAll(() => sb.close());

const left = (b: 'read' | 'upstream') => sb.limits.state(ADMIN_KEY_ID, b).remaining;
const ws = { workspace: 'acme' };

describe('Caching where the spec allows it; cached answers say their age', () => {
  it('me and capabilities are cached briefly and spend no read token when served from the cache', async () => {
    const { client: c } = client(sb);
    const first = await c.me();
    expect(first.cachedAgeSeconds).toBeUndefined();
    const caps = await c.capabilities();
    const before = left('read');
    const again = await c.me();
    expect(again.cachedAgeSeconds).toBe(0);
    expect(again.data).toEqual(first.data);
    expect((await c.capabilities()).cachedAgeSeconds).toBe(0);
    expect((await c.capabilities()).data).toEqual(caps.data);
    expect(left('read')).toBe(before);
    const fresh = await c.me({ cache: 'refresh' });
    expect(fresh.cachedAgeSeconds).toBeUndefined();
    expect(left('read')).toBe(before - 1);
    await c.close();
  });

  it('the campaign roster (upstream bucket, cached 60 s by the service) is cached per query; concurrent calls share one request', async () => {
    const { client: c } = client(sb);
    await c.me();
    const before = left('upstream');
    const [a, b] = await Promise.all([c.call('list_campaigns', { path: ws }), c.call('list_campaigns', { path: ws })]);
    expect(a.data).toEqual(b.data);
    expect(left('upstream')).toBe(before - 1);
    const cached = await c.call('list_campaigns', { path: ws });
    expect(cached.cachedAgeSeconds).toBe(0);
    expect(left('upstream')).toBe(before - 1);
    await c.call('list_campaigns', { path: ws, query: { limit: 5 } });
    expect(left('upstream')).toBe(before - 2);
    // Tags are not cached by the service: each call is spent.
    await c.call('list_campaign_tags', { path: ws });
    await c.call('list_campaign_tags', { path: ws });
    expect(left('upstream')).toBe(before - 4);
    await c.close();
  });

  it('a cache of ttl 0 (cache: false) serves nothing from memory', async () => {
    const { client: c } = client(sb, { cache: false });
    await c.me();
    const before = left('read');
    expect((await c.me()).cachedAgeSeconds).toBeUndefined();
    expect(left('read')).toBe(before - 1);
    await c.close();
  });
});
