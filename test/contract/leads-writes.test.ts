import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { leadPriorityUpdateResource, leadResource } from '../../src/api/resources.js';
import { TEST_NOW, type TestApi, readAll, startTestApi } from '../../scripts/harness/sandbox.js';

const WS = '/v1/workspaces/acme';
let api: TestApi;
let all: any[];
/** Each test takes leads of its own, so writes never meet. */
let next = 60;
const take = () => all[next++]!;
/** The sandbox's now, a minute after the seed's: what a write stamps. */
const NOW = Date.parse(TEST_NOW) + 60_000;
beforeAll(async () => {
  api = await startTestApi({ rateLimits: false });
  api.sandbox.clock.now = () => NOW;
  all = await readAll(api, `${WS}/leads`);
});
afterAll(() => api.close());

const lead = async (id: string, key: 'admin' | 'rep' = 'admin', expand?: string) =>
  (await api.get(`${WS}/leads/${id}`, { key, query: expand ? { expand } : {} })).body;
const post = (id: string, action: string, body: unknown = {}, key: 'admin' | 'rep' | 'readonly' = 'admin') =>
  api.call('POST', `${WS}/leads/${id}/${action}`, { key, body });
async function openTask(leadId: string, key: 'admin' | 'rep' = 'admin') {
  const r = await api.call('POST', `${WS}/tasks`, { key, body: { lead_id: leadId, due_date: '2026-12-01' } });
  expect(r.status).toBe(201);
  return r.body.id as string;
}
const openTaskIds = async (id: string) => (await lead(id, 'admin', 'open_tasks')).open_tasks.map((t: any) => t.id).sort();
const replyIds = async (id: string) => (await api.get(`${WS}/leads/${id}/replies`)).body.data.map((r: any) => r.id).sort();

describe('General rule 7: every write response has effects with provider_writes []', () => {
  it.each([
    ['status', { status: 'interested' }],
    ['read', {}],
    ['unread', {}],
    ['responded', {}],
    ['booked', {}],
    ['disqualified', {}],
  ])('POST %s', async (action, body) => {
    const r = await post(take().id, action, body);
    expect(r.status).toBe(200);
    expect(r.body.effects.provider_writes).toEqual([]);
  });
  it('PUT assignees, tags, priority', async () => {
    const l = take();
    for (const [path, body] of [
      [`leads/${l.id}/assignees`, { member_ids: [] }],
      [`leads/${l.id}/tags`, { tag_ids: [] }],
      ['leads/priority', { lead_ids: [l.id], priority: true }],
    ] as const) {
      const r = await api.call('PUT', `${WS}/${path}`, { body });
      expect(r.status).toBe(200);
      expect(r.body.effects.provider_writes).toEqual([]);
    }
  });
  it('a key without leads:write is 403 insufficient_scope on every lead write', async () => {
    const l = take();
    for (const [method, path, body] of [
      ['POST', `leads/${l.id}/status`, { status: 'interested' }],
      ['POST', `leads/${l.id}/read`, {}],
      ['POST', `leads/${l.id}/booked`, {}],
      ['PUT', `leads/${l.id}/assignees`, { member_ids: [] }],
      ['PUT', 'leads/priority', { lead_ids: [l.id], priority: true }],
    ] as const) {
      const r = await api.call(method, `${WS}/${path}`, { key: 'readonly', body });
      expect(r.status).toBe(403);
      expect(r.body.error).toMatchObject({ code: 'insufficient_scope', required_scope: 'leads:write' });
    }
  });
});

describe('Transition: status interested, automated, untagged sets the status, updates last_action_at; effects replies_updated, lead_status_set', () => {
  it.each([['interested'], ['automated'], ['untagged']])('%s', async (status) => {
    const l = take();
    const task = await openTask(l.id);
    const r = await post(l.id, 'status', { status });
    expect(r.status).toBe(200);
    leadResource.parse(r.body);
    expect(r.body).toMatchObject({ object: 'lead', id: l.id, status });
    expect(Date.parse(r.body.last_action_at)).toBe(NOW);
    expect({ ...r.body.effects, replies_updated: [...r.body.effects.replies_updated].sort() }).toEqual({
      lead_status_set: true,
      replies_updated: await replyIds(l.id),
      tasks_completed: [],
      provider_writes: [],
    });
    expect(await openTaskIds(l.id)).toContain(task);
    expect((await lead(l.id)).status).toBe(status);
    for (const reply of (await api.get(`${WS}/leads/${l.id}/replies`)).body.data) expect(reply.status).toBe(status);
  });
});

describe('Transition: status not_interested or unsubscribed (or dnc) completes every open task on the lead, for good', () => {
  it('not_interested completes the tasks of every assignee; a later status does not restore them', async () => {
    const l = take();
    await openTask(l.id, 'admin');
    await openTask(l.id, 'rep');
    const open = await openTaskIds(l.id);
    const r = await post(l.id, 'status', { status: 'not_interested' });
    expect([...r.body.effects.tasks_completed].sort()).toEqual(open);
    expect(await openTaskIds(l.id)).toEqual([]);
    const t = (await api.get(`${WS}/tasks`, { query: { lead_id: l.id, status: 'completed' } })).body.data;
    for (const id of open) expect(t.find((x: any) => x.id === id)?.completed_at).toMatch(/Z$/);
    await post(l.id, 'status', { status: 'interested' });
    expect(await openTaskIds(l.id)).toEqual([]);
  });
  it('dnc is stored and returned as unsubscribed, and completes tasks too', async () => {
    const l = take();
    const task = await openTask(l.id);
    const r = await post(l.id, 'status', { status: 'dnc' });
    expect(r.body.status).toBe('unsubscribed');
    expect(r.body.effects.tasks_completed).toContain(task);
    expect((await lead(l.id)).status).toBe('unsubscribed');
    expect((await readAll(api, `${WS}/leads`, { query: { status: 'unsubscribed' } })).map((x: any) => x.id)).toContain(l.id);
  });
  it('a value outside the input list is 400 invalid_request naming status; so is an unknown field', async () => {
    const l = take();
    for (const body of [{ status: 'booked' }, { status: 'legacy_hold' }, {}, { status: 'interested', note: 'x' }]) {
      const r = await post(l.id, 'status', body);
      expect(r.status).toBe(400);
      expect(r.body.error.code).toBe('invalid_request');
      expect(r.body.error.param).toBe('note' in body ? 'note' : 'status');
    }
    expect((await lead(l.id)).status).toBe(l.status);
  });
});

describe('Transition: read sets unread=false for the key owner, stamps the workspace-wide receipt; idempotent', () => {
  it('Ada reads a lead unread for both; Ben still sees it unread', async () => {
    const l = all.slice(next).find((x) => x.unread);
    next = all.indexOf(l) + 1;
    expect((await lead(l.id, 'rep')).unread).toBe(true);
    const r = await post(l.id, 'read');
    expect(r.status).toBe(200);
    expect(Object.keys(r.body).sort()).toEqual(['effects', 'id', 'object', 'unread']);
    expect(r.body).toMatchObject({ object: 'lead', id: l.id, unread: false });
    expect(r.body.effects).toMatchObject({ read_receipts_written: 1, provider_writes: [] });
    expect([...r.body.effects.replies_updated].sort()).toEqual(await replyIds(l.id));
    expect(r.body.effects.workspace_read_at).toMatch(/Z$/);
    expect((await lead(l.id)).unread).toBe(false);
    expect((await lead(l.id, 'rep')).unread).toBe(true);
    const again = await post(l.id, 'read');
    expect(again.body).toMatchObject({ object: 'lead', id: l.id, unread: false });
  });
  it('the body must be empty', async () => {
    const r = await post(take().id, 'read', { unread: false });
    expect(r.body.error).toMatchObject({ code: 'invalid_request', param: 'unread' });
  });
});

describe('Transition: unread clears the receipt for the key owner', () => {
  it("Ben marks unread a lead both have read; Ada's stays read", async () => {
    const l = take();
    await post(l.id, 'read');
    await post(l.id, 'read', {}, 'rep');
    const r = await post(l.id, 'unread', {}, 'rep');
    expect(r.body).toMatchObject({ object: 'lead', id: l.id, unread: true, effects: { read_receipts_cleared: 1, provider_writes: [] } });
    expect((await lead(l.id, 'rep')).unread).toBe(true);
    expect((await lead(l.id)).unread).toBe(false);
    expect((await post(l.id, 'unread', {}, 'rep')).body.effects.read_receipts_cleared).toBe(0);
  });
});

describe('Transition: a new inbound reply strictly newer than the receipt flags the lead unread again', () => {
  it('a reply at the receipt time does not; one second later does', async () => {
    const l = take();
    const receipt = (await post(l.id, 'read')).body.effects.workspace_read_at;
    api.sandbox.control.simulateInboundReply(l.id, new Date(receipt));
    expect((await lead(l.id)).unread).toBe(false);
    const reply = api.sandbox.control.simulateInboundReply(l.id, new Date(Date.parse(receipt) + 1000));
    const after = await lead(l.id);
    expect(after).toMatchObject({ unread: true, latest_reply_id: reply.id, last_message_direction: 'received', campaign_id: null });
    expect((await api.get(`${WS}/leads/${l.id}/replies`)).body.data[0].id).toBe(reply.id);
    expect((await readAll(api, `${WS}/leads`, { query: { limit: 5 } })).map((x: any) => x.id).indexOf(l.id)).toBe(0);
  });
});

describe('Transition: responded is team-wide; a strictly newer inbound reply sets it back to not responded', () => {
  it('Ada marks responded, Ben sees it; an equal-time reply keeps it, a newer one clears it', async () => {
    const l = all.slice(next).find((x) => !x.responded);
    next = all.indexOf(l) + 1;
    const r = await post(l.id, 'responded');
    leadResource.parse(r.body);
    expect(r.body).toMatchObject({ id: l.id, responded: true, effects: { lead_responded_set: true, provider_writes: [] } });
    expect((await lead(l.id, 'rep')).responded).toBe(true);
    expect((await readAll(api, `${WS}/leads`, { key: 'rep', query: { responded: true } })).map((x: any) => x.id)).toContain(l.id);
    const respondedAt = api.sandbox.store.leads.get(l.id)!.responded_at!;
    api.sandbox.control.simulateInboundReply(l.id, new Date(respondedAt));
    expect((await lead(l.id)).responded).toBe(true);
    api.sandbox.control.simulateInboundReply(l.id);
    expect((await lead(l.id)).responded).toBe(false);
    expect((await lead(l.id, 'rep')).responded).toBe(false);
    expect((await post(l.id, 'responded')).body.effects.lead_responded_set).toBe(true);
    expect((await post(l.id, 'responded')).body.effects.lead_responded_set).toBe(false);
  });
});

describe('Transition: booked sets state booked, completes open tasks; create_meeting makes a mark_booked meeting', () => {
  it('with create_meeting: state, timestamp, tasks, meeting; a repeat creates nothing', async () => {
    const l = all.slice(next).find((x) => x.state === 'active');
    next = all.indexOf(l) + 1;
    await openTask(l.id);
    const open = await openTaskIds(l.id);
    const r = await post(l.id, 'booked', { create_meeting: true });
    expect(r.status).toBe(200);
    leadResource.parse(r.body);
    expect(r.body).toMatchObject({ id: l.id, state: 'booked', status: l.status });
    expect(r.body.booked_at).toMatch(/Z$/);
    expect(r.body.effects).toMatchObject({ lead_state_set: true, provider_writes: [] });
    expect([...r.body.effects.tasks_completed].sort()).toEqual(open);
    expect(await openTaskIds(l.id)).toEqual([]);
    const m = (await api.get(`${WS}/meetings/${r.body.effects.meeting_created}`)).body;
    expect(m).toMatchObject({ object: 'meeting', lead_id: l.id, source: 'mark_booked', booked_by_id: 'usr_ada', outcome: null, locked: false });
    const again = await post(l.id, 'booked', { create_meeting: true });
    expect(again.body.booked_at).toBe(r.body.booked_at);
    expect(again.body.effects).toMatchObject({ lead_state_set: false, tasks_completed: [], meeting_created: null });
    expect((await readAll(api, `${WS}/leads`, { query: { status: 'booked' } })).map((x: any) => x.id)).toContain(l.id);
  });
  it('without create_meeting no meeting is made', async () => {
    const l = all.slice(next).find((x) => x.state === 'active');
    next = all.indexOf(l) + 1;
    const before = (await lead(l.id, 'admin', 'meetings')).meetings.length;
    const r = await post(l.id, 'booked');
    expect(r.body.effects.meeting_created).toBeNull();
    expect((await lead(l.id, 'admin', 'meetings')).meetings).toHaveLength(before);
  });
  it('create_meeting must be a boolean', async () => {
    const r = await post(take().id, 'booked', { create_meeting: 'yes' });
    expect(r.body.error).toMatchObject({ code: 'invalid_request', param: 'create_meeting' });
  });
});

describe('Transition: disqualified sets state disqualified and completes open tasks; reengage_approved is recorded', () => {
  it('state, timestamp, tasks, reengage_approved', async () => {
    const l = all.slice(next).find((x) => x.state === 'active');
    next = all.indexOf(l) + 1;
    await openTask(l.id, 'rep');
    const open = await openTaskIds(l.id);
    const r = await post(l.id, 'disqualified', { reengage_approved: true });
    expect(r.body).toMatchObject({ id: l.id, state: 'disqualified' });
    expect(r.body.disqualified_at).toMatch(/Z$/);
    expect(r.body.effects).toMatchObject({ lead_state_set: true, reengage_approved: true, provider_writes: [] });
    expect([...r.body.effects.tasks_completed].sort()).toEqual(open);
    expect(await openTaskIds(l.id)).toEqual([]);
    expect((await readAll(api, `${WS}/leads`, { query: { status: 'disqualified' } })).map((x: any) => x.id)).toContain(l.id);
  });
  it('reengage_approved must be a boolean', async () => {
    const r = await post(take().id, 'disqualified', { reengage_approved: 1 });
    expect(r.body.error).toMatchObject({ code: 'invalid_request', param: 'reengage_approved' });
  });
});

describe('Assignees PUT: each member id must be assignable in the workspace, else 422 and nothing is written; the set is replaced, source manual', () => {
  it('replaces the whole set; effects name who was added and removed', async () => {
    const l = all.slice(next).find((x) => x.assignee_ids.length === 1);
    next = all.indexOf(l) + 1;
    const [kept] = l.assignee_ids;
    const assignedBefore = (await api.get(`${WS}/leads/${l.id}/assignees`)).body.data[0].assigned_at;
    const others = ['usr_ben_acme', 'usr_mia_acme', 'usr_raj_acme'].filter((m) => m !== kept).slice(0, 2);
    const r = await api.call('PUT', `${WS}/leads/${l.id}/assignees`, { body: { member_ids: [kept, ...others, others[0]] } });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ object: 'list', has_more: false, next_cursor: null });
    expect(r.body.data.map((m: any) => m.id)).toEqual([kept, ...others]);
    for (const m of r.body.data) expect(m).toMatchObject({ object: 'member', assignment_source: 'manual' });
    expect(r.body.data[0].assigned_at).toBe(assignedBefore);
    expect(r.body.effects).toEqual({ assignees_added: others, assignees_removed: [], provider_writes: [] });
    const r2 = await api.call('PUT', `${WS}/leads/${l.id}/assignees`, { body: { member_ids: [others[1]] } });
    expect(r2.body.effects).toEqual({ assignees_added: [], assignees_removed: [kept, others[0]], provider_writes: [] });
    expect((await lead(l.id)).assignee_ids).toEqual([others[1]]);
    expect((await api.get(`${WS}/leads/${l.id}/assignees`)).body.data.map((m: any) => m.id)).toEqual([others[1]]);
    expect((await readAll(api, `${WS}/leads`, { query: { assignee_id: others[1]! } })).map((x: any) => x.id)).toContain(l.id);
  });
  it.each([
    ['usr_cy_acme', 'a deactivated, unassignable member'],
    ['usr_hal_globex', 'a member of another workspace'],
    ['usr_nobody_acme', 'no one'],
  ])('%s (%s) is 422 unprocessable; nothing written', async (bad) => {
    const l = take();
    const r = await api.call('PUT', `${WS}/leads/${l.id}/assignees`, { body: { member_ids: ['usr_ben_acme', bad] } });
    expect(r.status).toBe(422);
    expect(r.body.error).toMatchObject({ code: 'unprocessable', param: 'member_ids' });
    expect((await lead(l.id)).assignee_ids).toEqual(l.assignee_ids);
  });
  it('an admin is assignable only where the workspace allows it', async () => {
    const acme = await api.call('PUT', `${WS}/leads/${take().id}/assignees`, { body: { member_ids: ['usr_ada_acme'] } });
    expect(acme.status).toBe(200);
    const gl = (await api.get('/v1/workspaces/globex/leads', { key: 'globex', query: { limit: 1 } })).body.data[0];
    const globex = await api.call('PUT', `/v1/workspaces/globex/leads/${gl.id}/assignees`, { key: 'globex', body: { member_ids: ['usr_gus_globex'] } });
    expect(globex.body.error).toMatchObject({ code: 'unprocessable', param: 'member_ids' });
  });
  it('a one-part user id is 400 invalid_id', async () => {
    const r = await api.call('PUT', `${WS}/leads/${take().id}/assignees`, { body: { member_ids: ['usr_ben'] } });
    expect(r.body.error).toMatchObject({ code: 'invalid_id', param: 'member_ids.0' });
  });
});

describe('Tags PUT: tag ids must be in the workspace roster, else 422; the whole set is replaced', () => {
  it('replace, in applied order; effects tags_added and tags_removed', async () => {
    const roster = (await api.get(`${WS}/lead_tags`)).body.data.map((t: any) => t.id);
    const l = take();
    await api.call('PUT', `${WS}/leads/${l.id}/tags`, { body: { tag_ids: [roster[0], roster[1]] } });
    const r = await api.call('PUT', `${WS}/leads/${l.id}/tags`, { body: { tag_ids: [roster[2], roster[1], roster[2]] } });
    expect(r.status).toBe(200);
    expect(r.body.data.map((t: any) => t.id)).toEqual([roster[1], roster[2]]);
    for (const t of r.body.data) expect(t).toMatchObject({ object: 'lead_tag', workspace: 'acme' });
    expect(r.body.effects).toEqual({ tags_added: [roster[2]], tags_removed: [roster[0]], provider_writes: [] });
    expect((await api.get(`${WS}/leads/${l.id}/tags`)).body.data.map((t: any) => t.id)).toEqual([roster[1], roster[2]]);
    expect((await readAll(api, `${WS}/leads`, { query: { lead_tag_id: roster[2] } })).map((x: any) => x.id)).toContain(l.id);
  });
  it('a tag of another workspace is 422 unprocessable and nothing changes', async () => {
    const globexTag = (await api.get('/v1/workspaces/globex/lead_tags')).body.data[0].id;
    const l = take();
    const before = (await api.get(`${WS}/leads/${l.id}/tags`)).body.data;
    const r = await api.call('PUT', `${WS}/leads/${l.id}/tags`, { body: { tag_ids: [globexTag] } });
    expect(r.status).toBe(422);
    expect(r.body.error).toMatchObject({ code: 'unprocessable', param: 'tag_ids' });
    expect((await api.get(`${WS}/leads/${l.id}/tags`)).body.data).toEqual(before);
  });
  it('a wrong-kind id is 400 invalid_id', async () => {
    const r = await api.call('PUT', `${WS}/leads/${take().id}/tags`, { body: { tag_ids: ['ctg_abc'] } });
    expect(r.body.error).toMatchObject({ code: 'invalid_id', param: 'tag_ids.0' });
  });
});

describe('Priority PUT: ids de-duplicated; all must be in the path workspace, else nothing changes; per key owner', () => {
  const put = (body: unknown, key: 'admin' | 'rep' = 'admin') => api.call('PUT', `${WS}/leads/priority`, { key, body });
  it('star, then a repeat returns the same ids and matched_count with updated_count 0', async () => {
    const ls = all
      .slice(next)
      .filter((x) => !x.priority)
      .slice(0, 2);
    next = all.indexOf(ls[1]) + 1;
    const benBefore = await Promise.all(ls.map((x) => lead(x.id, 'rep')));
    const r = await put({ lead_ids: [ls[0].id, ls[1].id, ls[0].id], priority: true });
    expect(r.status).toBe(200);
    leadPriorityUpdateResource.parse(r.body);
    expect(r.body).toEqual({
      object: 'lead_priority_update',
      workspace: 'acme',
      priority: true,
      lead_ids: [ls[0].id, ls[1].id],
      matched_count: 2,
      updated_count: 2,
      effects: { lead_priorities_changed: [ls[0].id, ls[1].id], lead_priority_set: true, provider_writes: [] },
    });
    for (const x of ls) expect((await lead(x.id)).priority).toBe(true);
    expect(await Promise.all(ls.map(async (x) => (await lead(x.id, 'rep')).priority))).toEqual(benBefore.map((b) => b.priority));
    const again = await put({ lead_ids: [ls[0].id, ls[1].id], priority: true });
    expect(again.body).toMatchObject({
      lead_ids: [ls[0].id, ls[1].id],
      matched_count: 2,
      updated_count: 0,
      effects: { lead_priorities_changed: [], lead_priority_set: false },
    });
  });
  it("false removes only the owner's stars", async () => {
    const l = take();
    await put({ lead_ids: [l.id], priority: true });
    await put({ lead_ids: [l.id], priority: true }, 'rep');
    const r = await put({ lead_ids: [l.id], priority: false }, 'rep');
    expect(r.body).toMatchObject({ priority: false, updated_count: 1, effects: { lead_priorities_changed: [l.id] } });
    expect((await lead(l.id, 'rep')).priority).toBe(false);
    expect((await lead(l.id)).priority).toBe(true);
  });
  it('an unknown lead, or one of another workspace, rejects the whole request with 404', async () => {
    const l = all.slice(next).find((x) => !x.priority);
    next = all.indexOf(l) + 1;
    const globexLead = (await api.get('/v1/workspaces/globex/leads', { query: { limit: 1 } })).body.data[0].id;
    for (const bad of ['lead_doesnotexist', globexLead]) {
      const r = await put({ lead_ids: [l.id, bad], priority: true });
      expect(r.status).toBe(404);
      expect(r.body.error).toMatchObject({ code: 'not_found', param: 'lead_ids' });
    }
    expect((await lead(l.id)).priority).toBe(false);
  });
  it('1..100 ids and a boolean priority, else 400 invalid_request', async () => {
    const many = Array.from({ length: 101 }, (_, i) => `lead_x${i}`);
    for (const [body, param] of [
      [{ lead_ids: [], priority: true }, 'lead_ids'],
      [{ lead_ids: many, priority: true }, 'lead_ids'],
      [{ lead_ids: [all[0].id] }, 'priority'],
    ] as const) {
      const r = await put(body);
      expect(r.status).toBe(400);
      expect(r.body.error).toMatchObject({ code: 'invalid_request', param });
    }
  });
});
