import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { leadResource, leadTagResource, memberResource, replyResource } from '../../src/api/resources.js';
import { SPECIAL_EMAILS } from '../../src/sandbox/seed/leads.js';
import { type TestApi, readAll, startTestApi } from '../../scripts/harness/sandbox.js';

const WS = '/v1/workspaces/acme';
let api: TestApi;
let all: any[];
const byEmail = (e: string) => all.find((l) => l.email === e);
beforeAll(async () => {
  api = await startTestApi({ rateLimits: false });
  all = await readAll(api, `${WS}/leads`);
});
afterAll(() => api.close());

const LEAD_FIELDS = [
  'object',
  'id',
  'workspace',
  'email',
  'first_name',
  'last_name',
  'company_name',
  'title',
  'status',
  'classification',
  'state',
  'subject',
  'body_preview',
  'latest_reply_id',
  'last_message_at',
  'last_message_direction',
  'last_action_at',
  'booked_at',
  'disqualified_at',
  'meeting_outcome',
  'meeting_outcome_at',
  'responded',
  'unread',
  'priority',
  'campaign_id',
  'campaign_name',
  'assignee_ids',
  'has_open_task',
  'next_due_at',
  'indexed_at',
];

describe('Resource lead: every field listed is present, and nothing else unless requested', () => {
  it('the detail read has exactly the listed fields, typed as the spec says, equal to its list row', async () => {
    for (const row of [all[0], byEmail(SPECIAL_EMAILS.anonymous), byEmail(SPECIAL_EMAILS.booked)]) {
      const r = await api.get(`${WS}/leads/${row.id}`);
      expect(r.status).toBe(200);
      expect(Object.keys(r.body).sort()).toEqual([...LEAD_FIELDS].sort());
      leadResource.parse(r.body);
      expect(r.body).toEqual(row);
    }
  });
  it('timestamps are ISO 8601 UTC with Z; next_due_at is a day', () => {
    for (const l of all) {
      for (const f of ['last_message_at', 'last_action_at', 'booked_at', 'disqualified_at', 'meeting_outcome_at', 'indexed_at']) {
        if (l[f] !== null) expect(l[f]).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
      }
      if (l.next_due_at !== null) expect(l.next_due_at).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    }
  });
});

describe('General rule 9: a lead of another workspace is 404 not_found', () => {
  it('a globex lead under acme, and an unknown lead', async () => {
    const globexLead = (await api.get('/v1/workspaces/globex/leads', { query: { limit: 1 } })).body.data[0].id;
    expect((await api.get(`/v1/workspaces/globex/leads/${globexLead}`)).status).toBe(200);
    for (const path of ['', '/replies', '/assignees', '/tags', '/messages']) {
      for (const id of [globexLead, 'lead_doesnotexist']) {
        const r = await api.get(`${WS}/leads/${id}${path}`);
        expect(r.status).toBe(404);
        expect(r.body.error).toMatchObject({ code: 'not_found', param: 'lead_id' });
      }
    }
  });
});

describe('Lead detail: expand is assignees, open_tasks, tags, notes, meetings, at most 3', () => {
  it('more than 3, or campaign (a list-only expansion), is 400 invalid_request', async () => {
    for (const expand of ['assignees,open_tasks,tags,notes', 'campaign']) {
      const r = await api.get(`${WS}/leads/${all[0].id}`, { query: { expand } });
      expect(r.status).toBe(400);
      expect(r.body.error).toMatchObject({ code: 'invalid_request', param: 'expand' });
    }
  });
  it('notes and meetings of the lead, oldest first; meetings without internal_notes', async () => {
    const meetings = await readAll(api, `${WS}/meetings`);
    const withLead = meetings.find((m: any) => m.lead_id && all.some((l) => l.id === m.lead_id));
    const lead = withLead.lead_id;
    const note = (await api.call('POST', `${WS}/notes`, { body: { lead_id: lead, body: 'Asked for pricing.' } })).body;
    const r = (await api.get(`${WS}/leads/${lead}`, { query: { expand: 'notes,meetings,tags' } })).body;
    expect(r.notes.map((n: any) => n.id)).toContain(note.id);
    expect(r.notes.at(-1)).toMatchObject({ object: 'note', id: note.id, lead_id: lead, body: 'Asked for pricing.' });
    expect(r.meetings.map((m: any) => m.id)).toContain(withLead.id);
    for (const m of r.meetings) {
      expect(m).toMatchObject({ object: 'meeting', lead_id: lead });
      expect(m).not.toHaveProperty('internal_notes');
    }
    expect(r.meetings.map((m: any) => m.booked_at)).toEqual([...r.meetings.map((m: any) => m.booked_at)].sort());
    expect(Array.isArray(r.tags)).toBe(true);
    expect(r).not.toHaveProperty('assignees');
  });
  it('open_tasks lists the open tasks of the lead, whoever they are assigned to', async () => {
    const lead = all[10].id;
    const t = (await api.call('POST', `${WS}/tasks`, { key: 'rep', body: { lead_id: lead, due_date: '2026-12-01' } })).body;
    const r = (await api.get(`${WS}/leads/${lead}`, { query: { expand: 'open_tasks' } })).body;
    expect(r.open_tasks.map((x: any) => x.id)).toContain(t.id);
    for (const x of r.open_tasks) expect(x).toMatchObject({ object: 'task', status: 'open', lead_id: lead });
  });
});

describe('Lead detail: include=sdr_notes gives the lead-resolved playbook, falling back to the workspace sdr_notes', () => {
  it('a campaign tag with a playbook, a lead without a campaign, a workspace without notes', async () => {
    const campaigns = await readAll(api, `${WS}/campaigns`);
    const enterprise = new Set(campaigns.filter((c: any) => c.tags.some((t: any) => t.name === 'Enterprise')).map((c: any) => c.id));
    const plain = new Set(campaigns.filter((c: any) => !c.tags.some((t: any) => ['Enterprise', 'Founders'].includes(t.name))).map((c: any) => c.id));
    const wsNotes = (await api.get(WS, { query: { include: 'sdr_notes' } })).body.sdr_notes;
    expect(typeof wsNotes).toBe('string');
    const get = async (id: string) => (await api.get(`${WS}/leads/${id}`, { query: { include: 'sdr_notes' } })).body.sdr_notes;
    const ent = await get(all.find((l) => enterprise.has(l.campaign_id)).id);
    expect(ent).toMatch(/Enterprise playbook/);
    expect(await get(all.find((l) => l.campaign_id === null).id)).toBe(wsNotes);
    expect(await get(all.find((l) => plain.has(l.campaign_id)).id)).toBe(wsNotes);
    expect((await api.get(`${WS}/leads/${all[0].id}`)).body).not.toHaveProperty('sdr_notes');
    const globexLead = (await api.get('/v1/workspaces/globex/leads', { query: { limit: 50 } })).body.data.find((l: any) => l.campaign_id === null);
    expect((await api.get(`/v1/workspaces/globex/leads/${globexLead.id}`, { query: { include: 'sdr_notes' } })).body.sdr_notes).toBeNull();
  });
  it('an unknown include value is 400 invalid_request', async () => {
    const r = await api.get(`${WS}/leads/${all[0].id}`, { query: { include: 'counts' } });
    expect(r.body.error).toMatchObject({ code: 'invalid_request', param: 'include' });
  });
});

describe("Replies: a lead's indexed inbound emails, paged by (received_at, id)", () => {
  it('newest first by default, asc on request, one per page with cursors', async () => {
    const lead = byEmail(SPECIAL_EMAILS.manyThreads);
    const whole = (await api.get(`${WS}/leads/${lead.id}/replies`)).body;
    expect(whole.data).toHaveLength(3);
    for (const r of whole.data) {
      replyResource.parse(r);
      expect(r).toMatchObject({ object: 'reply', lead_id: lead.id, workspace: 'acme', email: lead.email, direction: 'received' });
    }
    const times = whole.data.map((r: any) => r.received_at);
    expect(times).toEqual([...times].sort().reverse());
    const asc = (await api.get(`${WS}/leads/${lead.id}/replies`, { query: { order: 'asc' } })).body.data;
    expect(asc.map((r: any) => r.id)).toEqual(whole.data.map((r: any) => r.id).reverse());
    const walked = await readAll(api, `${WS}/leads/${lead.id}/replies`);
    expect(walked.map((r: any) => r.id)).toEqual(whole.data.map((r: any) => r.id));
    const one = (await api.get(`${WS}/leads/${lead.id}/replies`, { query: { limit: 1 } })).body;
    const two = (await api.get(`${WS}/leads/${lead.id}/replies`, { query: { limit: 1, cursor: one.next_cursor } })).body;
    expect([one.data[0].id, two.data[0].id]).toEqual(whole.data.slice(0, 2).map((r: any) => r.id));
  });
  it("another lead's replies cursor is 400 invalid_cursor", async () => {
    const a = byEmail(SPECIAL_EMAILS.manyThreads);
    const b = byEmail(SPECIAL_EMAILS.longThread);
    const cursor = (await api.get(`${WS}/leads/${a.id}/replies`, { query: { limit: 1 } })).body.next_cursor;
    const r = await api.get(`${WS}/leads/${b.id}/replies`, { query: { cursor } });
    expect(r.body.error).toMatchObject({ code: 'invalid_cursor', param: 'cursor' });
  });
});

describe('Assignees GET: the lead assignees as members with assignment_source and assigned_at', () => {
  it('one member per assignee id, in order; the whole list in one page', async () => {
    const lead = all.find((l) => l.assignee_ids.length > 0);
    const r = (await api.get(`${WS}/leads/${lead.id}/assignees`)).body;
    expect(r).toMatchObject({ object: 'list', has_more: false, next_cursor: null });
    expect(r.data.map((m: any) => m.id)).toEqual(lead.assignee_ids);
    for (const m of r.data) {
      memberResource.parse(m);
      expect(['auto', 'manual']).toContain(m.assignment_source);
      expect(m).toHaveProperty('assigned_at');
    }
  });
  it('an unassigned lead has an empty list; paging parameters are refused', async () => {
    const lead = all.find((l) => l.assignee_ids.length === 0);
    expect((await api.get(`${WS}/leads/${lead.id}/assignees`)).body.data).toEqual([]);
    const r = await api.get(`${WS}/leads/${lead.id}/assignees`, { query: { limit: 5 } });
    expect(r.body.error).toMatchObject({ code: 'unsupported_filter', param: 'limit' });
  });
});

describe('Lead tags: the workspace roster is paginated in workspace order; a lead lists its tags in applied order', () => {
  it('walking the roster 3 at a time gives the whole roster once, in order_index order', async () => {
    const whole = (await api.get(`${WS}/lead_tags`, { query: { limit: 200 } })).body;
    expect(whole.has_more).toBe(false);
    expect(whole.data.length).toBeGreaterThan(3);
    for (const t of whole.data) {
      leadTagResource.parse(t);
      expect(t.id).toMatch(/^ltg_[a-z0-9]+_[a-z0-9]+$/);
      expect(t.workspace).toBe('acme');
    }
    const walked: string[] = [];
    let cursor: string | null = null;
    do {
      const r: any = (await api.get(`${WS}/lead_tags`, { query: cursor ? { limit: 3, cursor } : { limit: 3 } })).body;
      walked.push(...r.data.map((t: any) => t.id));
      cursor = r.next_cursor;
    } while (cursor);
    expect(walked).toEqual(whole.data.map((t: any) => t.id));
    const globex = (await api.get('/v1/workspaces/globex/lead_tags')).body.data.map((t: any) => t.id);
    expect(globex.some((id: string) => walked.includes(id))).toBe(false);
  });
  it('order is not a parameter of the roster', async () => {
    const r = await api.get(`${WS}/lead_tags`, { query: { order: 'asc' } });
    expect(r.body.error).toMatchObject({ code: 'unsupported_filter', param: 'order' });
  });
  it("a lead's tags, as lead_tag objects", async () => {
    const lead = (await readAll(api, `${WS}/leads`, { query: { expand: 'tags' } })).find((l: any) => l.tags.length > 1);
    const r = (await api.get(`${WS}/leads/${lead.id}/tags`)).body;
    expect(r).toMatchObject({ object: 'list', has_more: false, next_cursor: null });
    expect(r.data).toEqual(lead.tags);
  });
});
