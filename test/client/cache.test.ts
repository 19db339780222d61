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

describe('Attachment download: application/octet-stream with Content-Disposition attachment; errors stay JSON', () => {
  it('download() returns the bytes and the file name, spending the read and thread buckets', async () => {
    const { client: c } = client(sb);
    let found: { lead: string; att: string; filename: string; content: string } | undefined;
    for (const lead of sb.store.leads.inGroup('acme')) {
      for (const m of sb.store.conversation(lead)) {
        const a = m.attachments[0];
        if (a) found = { lead: lead.id, att: a.id, filename: a.filename, content: a.content };
        if (found) break;
      }
      if (found) break;
    }
    expect(found).toBeDefined();
    const r = await c.download({ workspace: 'acme', lead_id: found!.lead, attachment_id: found!.att });
    expect(r).toMatchObject({ status: 200, filename: found!.filename, contentType: 'application/octet-stream', buckets: ['read', 'thread'] });
    expect(Buffer.isBuffer(r.data)).toBe(true);
    expect(r.data.toString('utf8')).toBe(found!.content);
    const err = await c.download({ workspace: 'acme', lead_id: found!.lead, attachment_id: 'att_missing' }).catch((e: unknown) => e);
    expect(err).toMatchObject({ kind: 'api', status: 404, code: 'not_found', param: 'attachment_id' });
    await c.close();
  });
});
