import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestApi, readAll, startTestApi } from '../../scripts/harness/sandbox.js';

let api: TestApi;
beforeAll(async () => {
  // Buckets stay on (the bucket header is asserted) but wide enough for this file's calls.
  api = await startTestApi({ bucketLimits: { read: 1000, upstream: 1000 } });
});
afterAll(() => api.close());

const ACME = '/v1/workspaces/acme';
const GLOBEX = '/v1/workspaces/globex';
const WEEKDAYS = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'];

const SEQUENCE_KEYS = ['active', 'created_at', 'created_by_id', 'id', 'name', 'object', 'send_days', 'send_days_mask', 'steps', 'visibility', 'workspace'];
const STEP_KEYS = [
  'delay_unit',
  'delay_value',
  'email_body',
  'id',
  'linkedin_text',
  'object',
  'order_index',
  'template_id',
  'title',
  'type',
  'wait_for_previous',
];

describe('sequence: every field of the resource, with steps', () => {
  it('each sequence and step has exactly the spec fields', async () => {
    const list = await readAll(api, `${ACME}/sequences`);
    expect(list.length).toBeGreaterThan(2);
    for (const s of list) {
      expect(Object.keys(s).sort()).toEqual(SEQUENCE_KEYS);
      expect(s.object).toBe('sequence');
      expect(s.id).toMatch(/^seq_/);
      expect(s.workspace).toBe('acme');
      for (const st of s.steps) {
        expect(Object.keys(st).sort()).toEqual(STEP_KEYS);
        expect(st.object).toBe('sequence_step');
        expect(st.id).toMatch(/^stp_/);
        expect(typeof st.wait_for_previous).toBe('boolean');
      }
      expect(s.steps.map((st: any) => st.order_index)).toEqual([...s.steps.map((st: any) => st.order_index)].sort((a, b) => a - b));
    }
  });
  it('steps of each type (email, call, linkedin, custom) and each delay unit (days, hours) exist', async () => {
    const steps = (await readAll(api, `${ACME}/sequences`)).flatMap((s) => s.steps);
    expect(new Set(steps.map((st) => st.type))).toEqual(new Set(['email', 'call', 'linkedin', 'custom']));
    expect(new Set(steps.map((st) => st.delay_unit))).toEqual(new Set(['days', 'hours']));
    expect(steps.some((st) => st.type === 'linkedin' && typeof st.linkedin_text === 'string')).toBe(true);
    expect(steps.some((st) => st.type === 'email' && st.template_id?.startsWith('tpl_'))).toBe(true);
    expect(steps.some((st) => st.type === 'email' && st.template_id === null && typeof st.email_body === 'string')).toBe(true);
  });
});

describe('sequence: send_days_mask is a 7-bit mask, bit i = UTC weekday i with 0 = Sunday; send_days are its three-letter names', () => {
  it('send_days names exactly the bits set in the mask', async () => {
    const list = await readAll(api, `${ACME}/sequences`);
    expect(new Set(list.map((s) => s.send_days_mask)).size).toBeGreaterThan(1);
    for (const s of list) {
      expect(s.send_days_mask).toBeGreaterThanOrEqual(0);
      expect(s.send_days_mask).toBeLessThanOrEqual(127);
      const fromMask = WEEKDAYS.filter((_, i) => (s.send_days_mask >> i) & 1);
      expect([...s.send_days].sort()).toEqual([...fromMask].sort());
    }
  });
  it('a weekend-only mask (Saturday and Sunday) is bits 6 and 0', async () => {
    const weekend = (await readAll(api, `${ACME}/sequences`)).find(
      (s) => s.send_days.length === 2 && s.send_days.includes('sat') && s.send_days.includes('sun'),
    );
    expect(weekend?.send_days_mask).toBe(0b1000001);
  });
});

describe('sequence: deleted sequences are not listed', () => {
  it('a deleted sequence of the store appears under no filter', async () => {
    const deleted = [...api.sandbox.store.sequences.inGroup('acme')].filter((s) => s.deleted);
    expect(deleted.length).toBeGreaterThan(0);
    const seen = new Set<string>();
    const queries: Record<string, string>[] = [{}, { active: 'true' }, { active: 'false' }, { visibility: 'workspace' }];
    for (const query of queries) {
      for (const s of await readAll(api, `${ACME}/sequences`, { query })) seen.add(s.id);
    }
    for (const s of deleted) expect(seen.has(s.id)).toBe(false);
  });
});

describe('sequences list: filters active and visibility', () => {
  it.each([['true'], ['false']])('active=%s returns exactly those sequences', async (active) => {
    const all = await readAll(api, `${ACME}/sequences`);
    const filtered = await readAll(api, `${ACME}/sequences`, { query: { active } });
    expect(filtered.length).toBeGreaterThan(0);
    expect(filtered.map((s) => s.id)).toEqual(all.filter((s) => String(s.active) === active).map((s) => s.id));
  });
  it.each([['workspace'], ['global'], ['private']])('visibility=%s returns exactly those sequences', async (visibility) => {
    const all = await readAll(api, `${ACME}/sequences`, { key: 'rep' });
    const filtered = await readAll(api, `${ACME}/sequences`, { key: 'rep', query: { visibility } });
    expect(filtered.length).toBeGreaterThan(0);
    expect(filtered.map((s) => s.id)).toEqual(all.filter((s) => s.visibility === visibility).map((s) => s.id));
  });
  it('active=maybe is 400 invalid_request; visibility=team is 400 unsupported_filter', async () => {
    const a = await api.get(`${ACME}/sequences`, { query: { active: 'maybe' } });
    expect(a.status).toBe(400);
    expect(a.body.error).toMatchObject({ code: 'invalid_request', param: 'active' });
    const v = await api.get(`${ACME}/sequences`, { query: { visibility: 'team' } });
    expect(v.status).toBe(400);
    expect(v.body.error).toMatchObject({ code: 'unsupported_filter', param: 'visibility' });
  });
  it('a private sequence is listed only for its creator (Ben sees his, Ada does not)', async () => {
    const ben = (await readAll(api, `${ACME}/sequences`, { key: 'rep' })).filter((s) => s.visibility === 'private');
    const ada = (await readAll(api, `${ACME}/sequences`)).filter((s) => s.visibility === 'private');
    expect(ben.length).toBeGreaterThan(0);
    for (const s of ben) expect(s.created_by_id).toBe('usr_ben');
    for (const s of ada) expect(s.created_by_id).toBe('usr_ada');
    expect(ada.map((s) => s.id)).not.toContain(ben[0].id);
  });
});

describe('sequences list: expand=templates puts the template on each step (our choice of values)', () => {
  it('each step with a template_id carries that template; others carry null', async () => {
    const list = await readAll(api, `${ACME}/sequences`, { query: { expand: 'templates' } });
    let expanded = 0;
    for (const st of list.flatMap((s) => s.steps)) {
      expect(st).toHaveProperty('template');
      if (st.template_id) {
        expect(st.template).toMatchObject({ object: 'template', id: st.template_id });
        expect((await api.get(`${ACME}/templates/${st.template_id}`)).body).toEqual(st.template);
        expanded++;
      } else {
        expect(st.template).toBeNull();
      }
    }
    expect(expanded).toBeGreaterThan(0);
  });
  it('without expand, steps carry no template field', async () => {
    const steps = (await readAll(api, `${ACME}/sequences`)).flatMap((s) => s.steps);
    for (const st of steps) expect(st).not.toHaveProperty('template');
  });
  it('an unknown expansion is 400 invalid_request naming expand', async () => {
    const r = await api.get(`${ACME}/sequences`, { query: { expand: 'steps' } });
    expect(r.status).toBe(400);
    expect(r.body.error).toMatchObject({ code: 'invalid_request', param: 'expand' });
  });
});

describe('Pagination: sequences sort by (created_at, id); order flips it, default desc', () => {
  it('asc is sorted and desc is its reverse; a page of one walks it all', async () => {
    const asc = (await readAll(api, `${ACME}/sequences`, { query: { order: 'asc' } })).map((s) => [s.created_at, s.id]);
    const desc = (await readAll(api, `${ACME}/sequences`)).map((s) => [s.created_at, s.id]);
    expect(asc).toEqual([...asc].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : a[1] < b[1] ? -1 : 1)));
    expect(desc).toEqual([...asc].reverse());
    const walked = (await readAll(api, `${ACME}/sequences`, { query: { limit: 1 } })).map((s) => [s.created_at, s.id]);
    expect(walked).toEqual(desc);
  });
});

describe('campaign: object, id, workspace, name, status, tags [{id, name}]', () => {
  it('each roster item has exactly those fields', async () => {
    const list = await readAll(api, `${ACME}/campaigns`);
    expect(list.length).toBeGreaterThan(3);
    for (const c of list) {
      expect(Object.keys(c).sort()).toEqual(['id', 'name', 'object', 'status', 'tags', 'workspace']);
      expect(c.object).toBe('campaign');
      expect(c.id).toMatch(/^cmp_/);
      expect(c.workspace).toBe('acme');
      for (const t of c.tags) {
        expect(Object.keys(t).sort()).toEqual(['id', 'name']);
        expect(t.id).toMatch(/^ctg_/);
      }
    }
    expect(list.some((c) => c.tags.length > 0)).toBe(true);
  });
  it("a tenant's roster holds only its own campaigns", async () => {
    const acme = (await readAll(api, `${ACME}/campaigns`)).map((c) => c.id);
    const globex = await readAll(api, `${GLOBEX}/campaigns`, { key: 'globex' });
    expect(globex.length).toBeGreaterThan(0);
    for (const c of globex) {
      expect(c.workspace).toBe('globex');
      expect(acme).not.toContain(c.id);
    }
  });
});

describe('campaigns: the live roster is read on the upstream bucket', () => {
  it.each([['campaigns'], ['campaign_tags']])('%s spends the upstream bucket', async (list) => {
    const r = await api.get(`${ACME}/${list}`);
    expect(r.status).toBe(200);
    expect(r.headers.get('x-ratelimit-bucket')).toBe('upstream');
  });
});

describe('Pagination: the campaign roster is paged in memory over a roster cached for 60 seconds per workspace', () => {
  it('a campaign added upstream is not listed while the snapshot is fresh, and is listed once it is 60 seconds old', async () => {
    const store = api.sandbox.store;
    const before = (await readAll(api, `${GLOBEX}/campaigns`, { key: 'globex' })).map((c) => c.id);
    const added = store.campaigns.add({
      id: 'cmp_globexlate01',
      workspace: 'globex',
      name: 'Added upstream',
      status: 'active',
      tag_ids: [],
      steps: [{ step_id: 1, label: 'Initial email', subject: null }],
      contacts: 10,
      started_on: '2026-11-01',
    });
    const fresh = (await readAll(api, `${GLOBEX}/campaigns`, { key: 'globex' })).map((c) => c.id);
    expect(fresh).toEqual(before);
    const snapshot = store.rosterCache.get('globex')!;
    store.rosterCache.set('globex', { ...snapshot, at: snapshot.at - 60_000 });
    const refreshed = (await readAll(api, `${GLOBEX}/campaigns`, { key: 'globex' })).map((c) => c.id);
    expect(refreshed).toEqual([...before, added.id]);
  });
  it('a page of one at a time walks the roster once, in roster order', async () => {
    const whole = (await readAll(api, `${ACME}/campaigns`)).map((c) => c.id);
    const walked = (await readAll(api, `${ACME}/campaigns`, { query: { limit: 1 } })).map((c) => c.id);
    expect(walked).toEqual(whole);
  });
  it('the roster takes cursor and limit only: order is refused as an unknown parameter', async () => {
    const r = await api.get(`${ACME}/campaigns`, { query: { order: 'asc' } });
    expect(r.status).toBe(400);
    expect(r.body.error).toMatchObject({ code: 'unsupported_filter', param: 'order' });
  });
  it.each([['campaigns'], ['campaign_tags']])('%s: a cursor of another list is 400 invalid_cursor', async (list) => {
    const other = (await api.get(`${ACME}/sequences`, { query: { limit: 1 } })).body.next_cursor;
    const r = await api.get(`${ACME}/${list}`, { query: { cursor: other } });
    expect(r.status).toBe(400);
    expect(r.body.error).toMatchObject({ code: 'invalid_cursor', param: 'cursor' });
  });
});

describe('campaign_tag: object, id, workspace, name, campaign_count', () => {
  it('campaign_count is the number of roster campaigns carrying the tag', async () => {
    const tags = await readAll(api, `${ACME}/campaign_tags`);
    const campaigns = await readAll(api, `${ACME}/campaigns`);
    expect(tags.length).toBeGreaterThan(1);
    for (const t of tags) {
      expect(Object.keys(t).sort()).toEqual(['campaign_count', 'id', 'name', 'object', 'workspace']);
      expect(t.object).toBe('campaign_tag');
      expect(t.id).toMatch(/^ctg_/);
      expect(t.campaign_count).toBe(campaigns.filter((c) => c.tags.some((x: any) => x.id === t.id)).length);
    }
    expect(tags.some((t) => t.campaign_count > 0)).toBe(true);
  });
  it('a page of one at a time walks every tag once', async () => {
    const whole = (await readAll(api, `${ACME}/campaign_tags`)).map((t) => t.id);
    const walked = (await readAll(api, `${ACME}/campaign_tags`, { query: { limit: 1 } })).map((t) => t.id);
    expect(walked).toEqual(whole);
    expect(new Set(walked).size).toBe(walked.length);
  });
});
