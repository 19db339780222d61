import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isId } from '../../src/api/ids.js';
import { noteResource } from '../../src/api/resources.js';
import { compareKeys } from '../../src/sandbox/paging.js';
import type { LeadRec } from '../../src/sandbox/store/types.js';
import { type TestApi, readAll, startTestApi } from '../../scripts/harness/sandbox.js';

const WS = '/v1/workspaces/acme';
let api: TestApi;
let all: any[];
let leads: readonly LeadRec[];

const create = (body: Record<string, unknown>, key: 'admin' | 'rep' | 'readonly' = 'admin') => api.call('POST', `${WS}/notes`, { body, key });
const newestReply = (leadId: string) =>
  [...api.sandbox.store.repliesByLead.get(leadId)].sort((a, b) => compareKeys([b.received_at, b.id], [a.received_at, a.id]))[0]?.id;

beforeAll(async () => {
  api = await startTestApi({ leads: 80, bucketLimits: { read: 10_000, write: 10_000 } });
  all = await readAll(api, `${WS}/notes`);
  leads = api.sandbox.store.leads.inGroup('acme');
});
afterAll(() => api.close());

describe('note resource', () => {
  it('returns every field of the note resource, on leads of the workspace, by several authors', () => {
    expect(all.length).toBeGreaterThan(0);
    for (const n of all) {
      expect(noteResource.safeParse(n).success).toBe(true);
      expect(n).toMatchObject({ object: 'note', workspace: 'acme' });
      expect(isId('note', n.id)).toBe(true);
      if (n.author_id !== null) expect(isId('user', n.author_id)).toBe(true);
      expect(api.sandbox.store.leads.get(n.lead_id)?.workspace).toBe('acme');
    }
    expect(new Set(all.map((n) => n.author_id)).size).toBeGreaterThan(2);
  });
});

describe('fixed sort key: notes by (created_at, id); order flips it', () => {
  it('is descending by default and ascending with order=asc, across pages', async () => {
    const keys = all.map((n) => [n.created_at, n.id] as const);
    for (let i = 1; i < keys.length; i++) expect(compareKeys(keys[i - 1]!, keys[i]!)).toBeGreaterThan(0);
    const asc = await readAll(api, `${WS}/notes`, { query: { order: 'asc' } });
    expect(asc.map((n) => n.id)).toEqual([...all].reverse().map((n) => n.id));
    const p1 = await api.get(`${WS}/notes`, { query: { limit: 2 } });
    const p2 = await api.get(`${WS}/notes`, { query: { limit: 2, cursor: p1.body.next_cursor } });
    expect([...p1.body.data, ...p2.body.data].map((n: any) => n.id)).toEqual(all.slice(0, 4).map((n) => n.id));
  });
});

describe('note list filters: lead_id, author_id, created_since', () => {
  it('lead_id keeps the lead’s notes; a lead of another workspace is 404 not_found', async () => {
    const leadId = all[0].lead_id;
    const r = await readAll(api, `${WS}/notes`, { query: { lead_id: leadId } });
    expect(r.map((n) => n.id).sort()).toEqual(
      all
        .filter((n) => n.lead_id === leadId)
        .map((n) => n.id)
        .sort(),
    );
    const foreign = await api.get(`${WS}/notes`, { query: { lead_id: api.sandbox.store.leads.inGroup('globex')[0]!.id } });
    expect(foreign.status).toBe(404);
    expect(foreign.body.error).toMatchObject({ code: 'not_found', param: 'lead_id' });
  });

  it('author_id (one-part usr_ id) keeps that author’s notes; someone outside the workspace is 422', async () => {
    const author = all.find((n) => n.author_id !== null).author_id;
    const r = await readAll(api, `${WS}/notes`, { query: { author_id: author } });
    expect(r.length).toBe(all.filter((n) => n.author_id === author).length);
    const out = await api.get(`${WS}/notes`, { query: { author_id: 'usr_hal' } });
    expect(out.status).toBe(422);
    expect(out.body.error).toMatchObject({ code: 'unprocessable', param: 'author_id' });
    const two = await api.get(`${WS}/notes`, { query: { author_id: 'usr_ben_acme' } });
    expect(two.body.error).toMatchObject({ code: 'invalid_id', param: 'author_id' });
  });

  it('created_since keeps notes created strictly after the instant', async () => {
    const pivot = all[Math.floor(all.length / 2)].created_at;
    const r = await readAll(api, `${WS}/notes`, { query: { created_since: pivot } });
    expect(r.map((n) => n.id).sort()).toEqual(
      all
        .filter((n) => Date.parse(n.created_at) > Date.parse(pivot))
        .map((n) => n.id)
        .sort(),
    );
    const bad = await api.get(`${WS}/notes`, { query: { created_since: '2026-11-01' } });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatchObject({ code: 'invalid_request', param: 'created_since' });
  });

  it('refuses an unknown filter with unsupported_filter', async () => {
    const r = await api.get(`${WS}/notes`, { query: { q: 'pricing' } });
    expect(r.status).toBe(400);
    expect(r.body.error).toMatchObject({ code: 'unsupported_filter', param: 'q' });
  });
});

describe('note POST: reply_id is set to the lead’s newest indexed reply; author_id is the key owner; not idempotent', () => {
  it('creates the note with 201, attached to the newest reply and written by the key owner', async () => {
    const lead = leads[9]!;
    const r = await create({ lead_id: lead.id, body: '  Asked for a call on Tuesday.  ' }, 'rep');
    expect(r.status).toBe(201);
    expect(noteResource.safeParse(r.body).success).toBe(true);
    expect(r.body).toMatchObject({
      object: 'note',
      workspace: 'acme',
      lead_id: lead.id,
      reply_id: newestReply(lead.id),
      author_id: 'usr_ben',
      body: 'Asked for a call on Tuesday.',
    });
    expect(r.body.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    expect(r.body.updated_at).toBe(r.body.created_at);
    expect(r.body.effects).toEqual({ note_created: true, provider_writes: [] });
    const listed = await readAll(api, `${WS}/notes`, { query: { lead_id: lead.id, author_id: 'usr_ben' } });
    expect(listed.map((n) => n.id)).toContain(r.body.id);
  });

  it('creates a second note for the same request sent twice', async () => {
    const body = { lead_id: leads[10]!.id, body: 'Retry me' };
    const a = await create(body);
    const b = await create(body);
    expect([a.status, b.status]).toEqual([201, 201]);
    expect(a.body.id).not.toBe(b.body.id);
    const listed = await readAll(api, `${WS}/notes`, { query: { lead_id: leads[10]!.id } });
    expect(listed.filter((n) => n.body === 'Retry me')).toHaveLength(2);
  });

  it('refuses a lead that does not exist in the workspace with 404 not_found naming lead_id', async () => {
    const before = api.sandbox.store.notes.size;
    for (const id of ['lead_nothere', api.sandbox.store.leads.inGroup('globex')[0]!.id]) {
      const r = await create({ lead_id: id, body: 'x' });
      expect(r.status).toBe(404);
      expect(r.body.error).toMatchObject({ code: 'not_found', param: 'lead_id' });
    }
    expect(api.sandbox.store.notes.size).toBe(before);
  });

  it('refuses an empty, blank or oversized body, a missing lead_id and unknown fields with 400', async () => {
    const lead = leads[0]!.id;
    const cases: [Record<string, unknown>, string, string][] = [
      [{ lead_id: lead }, 'body', 'invalid_request'],
      [{ lead_id: lead, body: '   ' }, 'body', 'invalid_request'],
      [{ lead_id: lead, body: 'x'.repeat(10_001) }, 'body', 'invalid_request'],
      [{ body: 'hello' }, 'lead_id', 'invalid_request'],
      [{ lead_id: 'tsk_abc', body: 'hello' }, 'lead_id', 'invalid_id'],
      [{ lead_id: lead, body: 'hello', author_id: 'usr_mia' }, 'author_id', 'invalid_request'],
    ];
    for (const [body, param, code] of cases) {
      const r = await create(body);
      expect([r.status, r.body.error]).toMatchObject([400, { code, param }]);
    }
  });

  it('needs notes:write: the readonly key can list but not create', async () => {
    expect((await api.get(`${WS}/notes`, { key: 'readonly', query: { limit: 1 } })).status).toBe(200);
    const r = await create({ lead_id: leads[0]!.id, body: 'x' }, 'readonly');
    expect(r.status).toBe(403);
    expect(r.body.error).toMatchObject({ code: 'insufficient_scope', required_scope: 'notes:write' });
  });
});
