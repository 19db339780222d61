import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isId } from '../../src/api/ids.js';
import { taskResource } from '../../src/api/resources.js';
import { compareKeys } from '../../src/sandbox/paging.js';
import type { LeadRec, TaskRec } from '../../src/sandbox/store/types.js';
import { type TestApi, readAll, startTestApi } from '../../scripts/harness/sandbox.js';

const WS = '/v1/workspaces/acme';
let api: TestApi;
let all: any[];
let leads: readonly LeadRec[];

const storeTasks = (): TaskRec[] => [...api.sandbox.store.tasks.inGroup('acme')];
const live = () => storeTasks().filter((t) => t.deleted_at === null);
const create = (body: Record<string, unknown>, key: 'admin' | 'rep' | 'readonly' = 'admin') => api.call('POST', `${WS}/tasks`, { body, key });
const newestReply = (leadId: string) =>
  [...api.sandbox.store.repliesByLead.get(leadId)].sort((a, b) => compareKeys([b.received_at, b.id], [a.received_at, a.id]))[0]?.id;

beforeAll(async () => {
  api = await startTestApi({ leads: 80, bucketLimits: { read: 10_000, write: 10_000 } });
  all = await readAll(api, `${WS}/tasks`);
  leads = api.sandbox.store.leads.inGroup('acme');
});
afterAll(() => api.close());

describe('task resource: title null on manual tasks, set with sequence on sequence-created tasks', () => {
  it('returns every field of the task resource and never the deletion stamp', () => {
    expect(all.length).toBeGreaterThan(0);
    for (const t of all) {
      expect(taskResource.safeParse(t).success).toBe(true);
      expect(t).not.toHaveProperty('deleted_at');
      expect(t.workspace).toBe('acme');
      expect(isId('task', t.id)).toBe(true);
      expect(t.reply_id).toEqual(expect.stringMatching(/^rep_/));
    }
  });

  it('sets title and sequence {id, name, step_index} together, only on sequence-created tasks', () => {
    const seq = all.filter((t) => t.sequence !== null);
    const manual = all.filter((t) => t.sequence === null);
    expect(seq.length).toBeGreaterThan(0);
    expect(manual.length).toBeGreaterThan(0);
    for (const t of seq) {
      expect(typeof t.title).toBe('string');
      expect(isId('sequence', t.sequence.id)).toBe(true);
      expect(typeof t.sequence.step_index).toBe('number');
    }
    for (const t of manual) expect(t.title).toBeNull();
  });

  it('uses one-part usr_ ids for assignee_id and creator_id (authentication rule 8)', () => {
    for (const t of all) {
      if (t.assignee_id !== null) expect(isId('user', t.assignee_id)).toBe(true);
      if (t.creator_id !== null) expect(isId('user', t.creator_id)).toBe(true);
    }
    expect(new Set(all.map((t) => t.assignee_id)).size).toBeGreaterThan(1);
  });

  it('seeds open and completed tasks, with a due day only or a due time too, and without a due day', () => {
    expect(all.some((t) => t.status === 'open')).toBe(true);
    expect(all.some((t) => t.status === 'completed' && t.completed_at !== null)).toBe(true);
    expect(all.some((t) => t.due_date !== null && t.due_time === null)).toBe(true);
    expect(all.some((t) => t.due_time !== null)).toBe(true);
    expect(all.some((t) => t.due_date === null)).toBe(true);
    for (const t of all) if (t.due_time !== null) expect(t.due_date).not.toBeNull();
    for (const t of all) expect(t.completed_at === null).toBe(t.status === 'open');
  });
});

describe('task status: deleted tasks are never shown', () => {
  it('lists every task of the workspace except the soft-deleted ones', () => {
    const deleted = storeTasks().filter((t) => t.deleted_at !== null);
    expect(deleted.length).toBeGreaterThan(0);
    const shown = new Set(all.map((t) => t.id));
    for (const t of deleted) expect(shown.has(t.id)).toBe(false);
    expect(all.length).toBe(live().length);
  });
});

describe('fixed sort key: tasks by (due_date, id); order flips it', () => {
  it('is descending by default, tasks without a due day last', () => {
    const keys = all.map((t) => [t.due_date, t.id] as const);
    for (let i = 1; i < keys.length; i++) expect(compareKeys(keys[i - 1]!, keys[i]!)).toBeGreaterThan(0);
    expect(all[all.length - 1].due_date).toBeNull();
  });

  it('order=asc gives the reverse, across pages', async () => {
    const asc = await readAll(api, `${WS}/tasks`, { query: { order: 'asc' } });
    expect(asc.map((t) => t.id)).toEqual([...all].reverse().map((t) => t.id));
    const page = await api.get(`${WS}/tasks`, { query: { limit: 3, order: 'asc' } });
    const next = await api.get(`${WS}/tasks`, { query: { limit: 3, order: 'asc', cursor: page.body.next_cursor } });
    expect([...page.body.data, ...next.body.data].map((t: any) => t.id)).toEqual(asc.slice(0, 6).map((t) => t.id));
  });
});

describe('task list filters: assignee_id, status, task_type, lead_id', () => {
  it('assignee_id (a one-part usr_ id) keeps only that person’s tasks', async () => {
    const ben = await readAll(api, `${WS}/tasks`, { query: { assignee_id: 'usr_ben' } });
    expect(ben.length).toBeGreaterThan(0);
    expect(ben.every((t) => t.assignee_id === 'usr_ben')).toBe(true);
    expect(ben.length).toBe(all.filter((t) => t.assignee_id === 'usr_ben').length);
  });

  it('assignee_id outside the workspace is 422 unprocessable; a two-part member id is invalid_id', async () => {
    const r = await api.get(`${WS}/tasks`, { query: { assignee_id: 'usr_hal' } });
    expect(r.status).toBe(422);
    expect(r.body.error).toMatchObject({ code: 'unprocessable', param: 'assignee_id' });
    const two = await api.get(`${WS}/tasks`, { query: { assignee_id: 'usr_ben_acme' } });
    expect(two.status).toBe(400);
    expect(two.body.error).toMatchObject({ code: 'invalid_id', param: 'assignee_id' });
  });

  it('status and task_type keep only matching tasks; an unknown value is unsupported_filter', async () => {
    const done = await readAll(api, `${WS}/tasks`, { query: { status: 'completed' } });
    expect(done.length).toBe(all.filter((t) => t.status === 'completed').length);
    expect(done.every((t) => t.status === 'completed')).toBe(true);
    const calls = await readAll(api, `${WS}/tasks`, { query: { task_type: 'call' } });
    expect(calls.length).toBe(all.filter((t) => t.task_type === 'call').length);
    const bad = await api.get(`${WS}/tasks`, { query: { status: 'deleted' } });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatchObject({ code: 'unsupported_filter', param: 'status' });
  });

  it('lead_id keeps the lead’s tasks; a lead of another workspace is 404 not_found', async () => {
    const leadId = all[0].lead_id;
    const mine = await readAll(api, `${WS}/tasks`, { query: { lead_id: leadId } });
    expect(mine.map((t) => t.id).sort()).toEqual(
      all
        .filter((t) => t.lead_id === leadId)
        .map((t) => t.id)
        .sort(),
    );
    const foreign = api.sandbox.store.leads.inGroup('globex')[0]!;
    const r = await api.get(`${WS}/tasks`, { query: { lead_id: foreign.id } });
    expect(r.status).toBe(404);
    expect(r.body.error).toMatchObject({ code: 'not_found', param: 'lead_id' });
  });

  it('never shows another workspace’s tasks', async () => {
    const globex = await readAll(api, '/v1/workspaces/globex/tasks');
    expect(globex.every((t) => t.workspace === 'globex')).toBe(true);
    const ids = new Set(all.map((t) => t.id));
    expect(globex.some((t) => ids.has(t.id))).toBe(false);
  });
});

describe('due_after and due_before are YYYY-MM-DD and compare whole days', () => {
  const dated = () => all.filter((t) => t.due_date !== null);
  const busiestDay = () => {
    const counts = new Map<string, number>();
    for (const t of dated()) counts.set(t.due_date, (counts.get(t.due_date) ?? 0) + 1);
    return [...counts.entries()].sort((a, b) => b[1] - a[1])[0]![0];
  };

  it('due_before=D keeps tasks due strictly before day D, whatever their due_time', async () => {
    const d = busiestDay();
    const r = await readAll(api, `${WS}/tasks`, { query: { due_before: d } });
    expect(r.map((t) => t.id).sort()).toEqual(
      dated()
        .filter((t) => t.due_date < d)
        .map((t) => t.id)
        .sort(),
    );
  });

  it('due_after=D keeps tasks due strictly after day D', async () => {
    const d = busiestDay();
    const r = await readAll(api, `${WS}/tasks`, { query: { due_after: d } });
    expect(r.map((t) => t.id).sort()).toEqual(
      dated()
        .filter((t) => t.due_date > d)
        .map((t) => t.id)
        .sort(),
    );
  });

  it('both together keep the days between; a day with a time of day still counts by its day', async () => {
    const timed = all.find((t) => t.due_time !== null)!;
    const day = timed.due_date as string;
    const prev = new Date(Date.parse(`${day}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10);
    const next = new Date(Date.parse(`${day}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
    const r = await readAll(api, `${WS}/tasks`, { query: { due_after: prev, due_before: next } });
    expect(r.map((t) => t.id).sort()).toEqual(
      all
        .filter((t) => t.due_date === day)
        .map((t) => t.id)
        .sort(),
    );
    expect(r.map((t) => t.id)).toContain(timed.id);
  });

  it('refuses a date-time or a bad day with invalid_request naming the parameter', async () => {
    const r = await api.get(`${WS}/tasks`, { query: { due_before: '2026-11-20T00:00:00Z' } });
    expect(r.status).toBe(400);
    expect(r.body.error).toMatchObject({ code: 'invalid_request', param: 'due_before' });
    const b = await api.get(`${WS}/tasks`, { query: { due_after: '2026-02-30' } });
    expect(b.body.error).toMatchObject({ code: 'invalid_request', param: 'due_after' });
  });

  it('refuses due_after on or after due_before with invalid_request', async () => {
    const r = await api.get(`${WS}/tasks`, { query: { due_after: '2026-11-21', due_before: '2026-11-21' } });
    expect(r.status).toBe(400);
    expect(r.body.error).toMatchObject({ code: 'invalid_request', param: 'due_before' });
  });
});

describe('task POST: lead must exist in the workspace; creator_id is the key owner; 201', () => {
  it('creates an open manual task on the lead’s newest reply, made by and given to the key owner', async () => {
    const lead = leads[5]!;
    const r = await create({ lead_id: lead.id, due_date: '2026-12-01', due_time: '09:30', notes: 'Call about pricing' }, 'rep');
    expect(r.status).toBe(201);
    expect(taskResource.safeParse(r.body).success).toBe(true);
    expect(r.body).toMatchObject({
      object: 'task',
      workspace: 'acme',
      lead_id: lead.id,
      reply_id: newestReply(lead.id),
      title: null,
      notes: 'Call about pricing',
      task_type: null,
      due_date: '2026-12-01',
      due_time: '09:30',
      status: 'open',
      creator_id: 'usr_ben',
      assignee_id: 'usr_ben',
      completed_at: null,
      sequence: null,
    });
    expect(r.body.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    expect(r.body.effects).toEqual({ task_created: true, provider_writes: [] });
    expect(r.headers.get('x-ratelimit-bucket')).toBe('write');
    const listed = await readAll(api, `${WS}/tasks`, { query: { lead_id: lead.id } });
    expect(listed.map((t) => t.id)).toContain(r.body.id);
  });

  it('refuses a lead that does not exist, or exists in another workspace, with 404 not_found naming lead_id', async () => {
    const before = storeTasks().length;
    const r = await create({ lead_id: 'lead_doesnotexist' });
    expect(r.status).toBe(404);
    expect(r.body.error).toMatchObject({ code: 'not_found', param: 'lead_id' });
    const foreign = await create({ lead_id: api.sandbox.store.leads.inGroup('globex')[0]!.id });
    expect(foreign.status).toBe(404);
    expect(foreign.body.error).toMatchObject({ code: 'not_found', param: 'lead_id' });
    expect(storeTasks().length).toBe(before);
  });

  it('refuses a missing lead_id, a bad day, a bad time, and a time without a day with 400', async () => {
    const cases: [Record<string, unknown>, string, string][] = [
      [{}, 'lead_id', 'invalid_request'],
      [{ lead_id: 'rep_abc' }, 'lead_id', 'invalid_id'],
      [{ lead_id: leads[0]!.id, due_date: '01/12/2026' }, 'due_date', 'invalid_request'],
      [{ lead_id: leads[0]!.id, due_date: '2026-12-01', due_time: '9am' }, 'due_time', 'invalid_request'],
      [{ lead_id: leads[0]!.id, due_time: '10:00' }, 'due_time', 'invalid_request'],
      [{ lead_id: leads[0]!.id, task_type: 'call' }, 'task_type', 'invalid_request'],
    ];
    for (const [body, param, code] of cases) {
      const r = await create(body);
      expect([r.status, r.body.error]).toMatchObject([400, { code, param }]);
    }
  });
});

describe('POST and PATCH reject title, company and opportunity references with 400 invalid_request', () => {
  for (const field of ['title', 'company_id', 'opportunity_id']) {
    it(`refuses ${field} on create and on edit, writing nothing`, async () => {
      const before = storeTasks().length;
      const r = await create({ lead_id: leads[1]!.id, [field]: field === 'title' ? 'Call them' : 'x_1' });
      expect(r.status).toBe(400);
      expect(r.body.error).toMatchObject({ code: 'invalid_request', param: field });
      expect(storeTasks().length).toBe(before);
      const target = live()[0]!;
      const snapshot = { ...target };
      const p = await api.call('PATCH', `${WS}/tasks/${target.id}`, { body: { notes: 'changed', [field]: 'x_1' } });
      expect(p.status).toBe(400);
      expect(p.body.error).toMatchObject({ code: 'invalid_request', param: field });
      expect(api.sandbox.store.tasks.get(target.id)).toEqual(snapshot);
    });
  }
});

describe("assignee_id is validated against the workspace's assignable members", () => {
  it('accepts an assignable member', async () => {
    const r = await create({ lead_id: leads[2]!.id, assignee_id: 'usr_mia' }, 'rep');
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({ assignee_id: 'usr_mia', creator_id: 'usr_ben' });
  });

  it('refuses a member who is not assignable, and a person of another workspace, with 422 unprocessable', async () => {
    for (const who of ['usr_cy', 'usr_hal', 'usr_nobody']) {
      const r = await create({ lead_id: leads[2]!.id, assignee_id: who });
      expect(r.status).toBe(422);
      expect(r.body.error).toMatchObject({ code: 'unprocessable', param: 'assignee_id' });
    }
    const t = live()[1]!;
    const p = await api.call('PATCH', `${WS}/tasks/${t.id}`, { body: { assignee_id: 'usr_hal' } });
    expect(p.status).toBe(422);
    expect(p.body.error).toMatchObject({ code: 'unprocessable', param: 'assignee_id' });
  });

  it('refuses a workspace-scoped two-part member id with invalid_id (tasks take one-part ids)', async () => {
    const r = await create({ lead_id: leads[2]!.id, assignee_id: 'usr_mia_acme' });
    expect(r.status).toBe(400);
    expect(r.body.error).toMatchObject({ code: 'invalid_id', param: 'assignee_id' });
  });
});

describe('POST is not idempotent (a retry creates a second task)', () => {
  it('creates two tasks for two identical requests', async () => {
    const body = { lead_id: leads[3]!.id, due_date: '2026-12-24', notes: 'same body twice' };
    const a = await create(body);
    const b = await create(body);
    expect([a.status, b.status]).toEqual([201, 201]);
    expect(a.body.id).not.toBe(b.body.id);
    const listed = await readAll(api, `${WS}/tasks`, { query: { lead_id: leads[3]!.id } });
    expect(listed.filter((t) => t.notes === 'same body twice')).toHaveLength(2);
  });
});

describe('task PATCH edits due_date, due_time, notes, assignee_id', () => {
  it('changes the fields sent and keeps the others, and the list sorts by the new day', async () => {
    const made = await create({ lead_id: leads[4]!.id, due_date: '2026-12-02', notes: 'first' });
    const r = await api.call('PATCH', `${WS}/tasks/${made.body.id}`, { body: { due_date: '2030-01-01', due_time: '16:45', assignee_id: 'usr_raj' } });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ id: made.body.id, due_date: '2030-01-01', due_time: '16:45', assignee_id: 'usr_raj', notes: 'first', title: null });
    expect(r.body.effects).toEqual({ task_fields_changed: ['due_date', 'due_time', 'assignee_id'], provider_writes: [] });
    const top = await api.get(`${WS}/tasks`, { query: { limit: 1 } });
    expect(top.body.data[0].id).toBe(made.body.id);
    const n = await api.call('PATCH', `${WS}/tasks/${made.body.id}`, { body: { notes: null } });
    expect(n.body).toMatchObject({ notes: null, due_date: '2030-01-01' });
  });

  it('clearing due_date clears due_time with it; a time without a day is refused', async () => {
    const made = await create({ lead_id: leads[4]!.id, due_date: '2026-12-02', due_time: '08:00' });
    const bad = await api.call('PATCH', `${WS}/tasks/${made.body.id}`, { body: { due_date: null, due_time: '09:00' } });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatchObject({ code: 'invalid_request', param: 'due_time' });
    const r = await api.call('PATCH', `${WS}/tasks/${made.body.id}`, { body: { due_date: null } });
    expect(r.body).toMatchObject({ due_date: null, due_time: null });
  });

  it('refuses an empty body or an unknown field with invalid_request', async () => {
    const t = live()[2]!;
    const empty = await api.call('PATCH', `${WS}/tasks/${t.id}`, { body: {} });
    expect(empty.status).toBe(400);
    expect(empty.body.error.code).toBe('invalid_request');
    const unknown = await api.call('PATCH', `${WS}/tasks/${t.id}`, { body: { priority: 'high' } });
    expect(unknown.body.error).toMatchObject({ code: 'invalid_request', param: 'priority' });
  });

  it('answers 404 not_found for an unknown task or one of another workspace', async () => {
    const r = await api.call('PATCH', `${WS}/tasks/tsk_nope`, { body: { notes: 'x' } });
    expect(r.status).toBe(404);
    expect(r.body.error).toMatchObject({ code: 'not_found', param: 'task_id' });
    const foreign = api.sandbox.store.tasks.inGroup('globex').find((t) => t.deleted_at === null)!;
    const f = await api.call('PATCH', `${WS}/tasks/${foreign.id}`, { body: { notes: 'x' } });
    expect(f.status).toBe(404);
  });
});

describe('task complete: completed_at set; completed=false is refused', () => {
  it('completes an open task and stamps completed_at; a repeat changes nothing', async () => {
    const made = await create({ lead_id: leads[6]!.id });
    const r = await api.call('POST', `${WS}/tasks/${made.body.id}/complete`, { body: { completed: true } });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ id: made.body.id, status: 'completed' });
    expect(Date.parse(r.body.completed_at)).toBeGreaterThanOrEqual(Date.parse(made.body.created_at));
    expect(r.body.effects).toEqual({ task_completed: true, provider_writes: [] });
    const again = await api.call('POST', `${WS}/tasks/${made.body.id}/complete`);
    expect(again.body).toMatchObject({ status: 'completed', completed_at: r.body.completed_at });
    expect(again.body.effects.task_completed).toBe(false);
    const open = await readAll(api, `${WS}/tasks`, { query: { lead_id: leads[6]!.id, status: 'open' } });
    expect(open.map((t) => t.id)).not.toContain(made.body.id);
  });

  it('refuses completed=false (reopening) with invalid_request naming completed', async () => {
    const done = live().find((t) => t.status === 'completed')!;
    const r = await api.call('POST', `${WS}/tasks/${done.id}/complete`, { body: { completed: false } });
    expect(r.status).toBe(400);
    expect(r.body.error).toMatchObject({ code: 'invalid_request', param: 'completed' });
    expect(api.sandbox.store.tasks.get(done.id)!.status).toBe('completed');
    const bad = await api.call('POST', `${WS}/tasks/${done.id}/complete`, { body: { completed: 'yes' } });
    expect(bad.body.error).toMatchObject({ code: 'invalid_request', param: 'completed' });
  });
});

describe('task DELETE is soft: the row survives with deleted_at, the task disappears from reads', () => {
  it('hides the task from every read and write, and a second DELETE is 404', async () => {
    const made = await create({ lead_id: leads[7]!.id, due_date: '2026-12-05' });
    const id = made.body.id;
    const r = await api.call('DELETE', `${WS}/tasks/${id}`);
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ object: 'task', id });
    expect(r.body).not.toHaveProperty('deleted_at');
    expect(r.body.effects).toEqual({ task_deleted: true, provider_writes: [] });
    expect(api.sandbox.store.tasks.get(id)!.deleted_at).toMatch(/Z$/);
    const listed = await readAll(api, `${WS}/tasks`, { query: { lead_id: leads[7]!.id } });
    expect(listed.map((t) => t.id)).not.toContain(id);
    const patch = await api.call('PATCH', `${WS}/tasks/${id}`, { body: { notes: 'x' } });
    const complete = await api.call('POST', `${WS}/tasks/${id}/complete`);
    const again = await api.call('DELETE', `${WS}/tasks/${id}`);
    for (const x of [patch, complete, again]) {
      expect(x.status).toBe(404);
      expect(x.body.error).toMatchObject({ code: 'not_found', param: 'task_id' });
    }
  });

  it('takes no body', async () => {
    const t = live()[3]!;
    const r = await api.call('DELETE', `${WS}/tasks/${t.id}`, { body: { hard: true } });
    expect(r.status).toBe(400);
    expect(r.body.error.code).toBe('invalid_request');
    expect(api.sandbox.store.tasks.get(t.id)!.deleted_at).toBeNull();
  });
});

describe('task scopes: tasks:read to list, tasks:write to change', () => {
  it('lets the readonly key list but not create, edit, complete or delete', async () => {
    expect((await api.get(`${WS}/tasks`, { key: 'readonly', query: { limit: 1 } })).status).toBe(200);
    const t = live()[0]!;
    const calls = [
      create({ lead_id: leads[0]!.id }, 'readonly'),
      api.call('PATCH', `${WS}/tasks/${t.id}`, { key: 'readonly', body: { notes: 'x' } }),
      api.call('POST', `${WS}/tasks/${t.id}/complete`, { key: 'readonly' }),
      api.call('DELETE', `${WS}/tasks/${t.id}`, { key: 'readonly' }),
    ];
    for (const r of await Promise.all(calls)) {
      expect(r.status).toBe(403);
      expect(r.body.error).toMatchObject({ code: 'insufficient_scope', required_scope: 'tasks:write' });
    }
  });
});

describe('task writes keep the owner-relative has_open_task accurate (open, not deleted, assigned to the key owner)', () => {
  it('turns on for the assignee only, and off again on complete and on delete', async () => {
    const lead = leads.find(
      (l) =>
        !api.sandbox.store.tasksByLead
          .get(l.id)
          .some((t) => t.status === 'open' && t.deleted_at === null && ['usr_ben', 'usr_ada'].includes(t.assignee_id ?? '')),
    )!;
    const flag = async (key: 'rep' | 'admin') => (await api.get(`${WS}/leads/${lead.id}`, { key })).body.has_open_task;
    expect([await flag('rep'), await flag('admin')]).toEqual([false, false]);
    const a = await create({ lead_id: lead.id }, 'rep');
    expect([await flag('rep'), await flag('admin')]).toEqual([true, false]);
    await api.call('POST', `${WS}/tasks/${a.body.id}/complete`, { key: 'rep' });
    expect(await flag('rep')).toBe(false);
    const b = await create({ lead_id: lead.id, assignee_id: 'usr_ben' });
    expect(await flag('rep')).toBe(true);
    await api.call('DELETE', `${WS}/tasks/${b.body.id}`);
    expect(await flag('rep')).toBe(false);
  });
});
