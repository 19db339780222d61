import type { CallToolResult } from '@modelcontextprotocol/server';
import { beforeAll, describe, expect, it } from 'vitest';
import { SANDBOX_KEYS } from '../src/sandbox/index.js';
import { LEAD_TRIAGE_FIELDS } from './leads.js';
import { callErr, callOk, expectWriteEffects } from '../test/helpers/tool-calls.js';
import { everyToolCovered, type InvalidCall, toolArea } from '../test/helpers/tool-area.js';

/** The leads tools (tools/leads.ts), served in process: valid calls, then one invalid call each. */
const area = toolArea('leads', { rep: true });
const ids = { members: [] as string[], tags: [] as string[] };
/** A set of ids as a comparable list: ordered, whatever order the answer or the store keeps them in. */
const sorted = (xs: readonly string[]) => [...xs].sort();
beforeAll(async () => {
  ids.members = (await callOk(area.admin, 'list_members', { assignable: true })).structured.data.map((m: any) => m.id);
  ids.tags = (await callOk(area.admin, 'list_lead_tags', {})).structured.data.map((t: any) => t.id);
});

describe('Lead reads: compact views by default, fields and view=full on request', () => {
  it('list_leads: compact rows carry only triage fields', async () => {
    const { structured } = await area.ok('list_leads', { limit: 10 });
    expect(structured.data).toHaveLength(10);
    const allowed = new Set(['object', ...LEAD_TRIAGE_FIELDS]);
    for (const row of structured.data) for (const k of Object.keys(row)) expect(allowed.has(k), k).toBe(true);
    expect(structured.has_more).toBe(true);
    expect(structured.next_cursor).toBeTypeOf('string');
  });
  it('list_leads: fields gives exactly those fields plus id', async () => {
    const { structured } = await area.ok('list_leads', { limit: 3, fields: ['email'] });
    for (const row of structured.data) expect(Object.keys(row).sort()).toEqual(['email', 'id', 'object']);
  });
  it("list_leads: view=full gives the API's record, its nulls left out of both forms as the text leaves them", async () => {
    const { structured } = await area.ok('list_leads', { limit: 3, view: 'full' });
    for (const row of structured.data) {
      for (const k of ['latest_reply_id', 'workspace', 'email', 'status', 'state']) expect(k in row, k).toBe(true);
      for (const [k, v] of Object.entries(row)) expect(v, k).not.toBeNull();
    }
  });
  it('get_lead: the lead with the expansion asked for', async () => {
    const id = area.leads.find((l) => area.store().leads.get(l.id)!.tag_ids.length > 0)!.id as string;
    const { structured } = await area.ok('get_lead', { lead_id: id, expand: ['tags'] });
    expect(structured.id).toBe(id);
    expect(structured.latest_reply).toContain(area.store().leads.get(id)!.first_name!);
    expect(structured.tags.map((t: any) => t.id)).toEqual(area.store().leads.get(id)!.tag_ids);
  });
  it("list_replies: the lead's indexed replies", async () => {
    const id = area.leads[0].id;
    const { structured } = await area.ok('list_replies', { lead_id: id });
    expect(sorted(structured.data.map((r: any) => r.id))).toEqual(
      sorted(
        area
          .store()
          .repliesByLead.get(id)
          .map((r) => r.id),
      ),
    );
    for (const r of structured.data) expect(r.lead_id).toBe(id);
  });
  it("get_assignees: the lead's assignees as members", async () => {
    const id = area.leads[1].id;
    const { structured } = await area.ok('get_assignees', { lead_id: id });
    expect(sorted(structured.data.map((m: any) => m.id))).toEqual(
      sorted(
        area
          .store()
          .leads.get(id)!
          .assignments.map((a) => a.member_id),
      ),
    );
  });
  it("list_lead_tags and get_lead_tags: the roster and one lead's tags", async () => {
    const roster = await area.ok('list_lead_tags');
    expect(roster.structured.data.length).toBeGreaterThan(0);
    for (const t of roster.structured.data) expect(t.id).toMatch(/^ltg_/);
    const id = area.leads[2].id;
    const { structured } = await area.ok('get_lead_tags', { lead_id: id });
    // A lead without tags answers no data at all (an empty list is left out of both forms).
    expect((structured.data ?? []).map((t: any) => t.id)).toEqual(area.store().leads.get(id)!.tag_ids);
  });
});

describe('Compact lead views: expanded records keep the fields their published outputSchema requires', () => {
  /** A lead whose expansion holds a record with a null field, the case the compact view trims. */
  const leadWith = (kind: string): string => {
    const s = area.store();
    const pick = s.leads.inGroup('acme').find((l) => {
      if (kind === 'assignees') return l.assignments.some((a) => s.users.get(a.member_id.replace(/_acme$/, ''))?.avatar_url === null);
      if (kind === 'open_tasks') return s.tasksByLead.get(l.id).some((t) => t.status === 'open' && !t.deleted_at && t.notes === null);
      return s.meetingsByLead.get(l.id).some((m) => m.outcome === null);
    });
    if (!pick) throw new Error(`no seeded lead has ${kind} with a null field`);
    return pick.id;
  };
  it.each([
    ['get_lead', 'assignees'],
    ['get_lead', 'open_tasks'],
    ['get_lead', 'meetings'],
    ['list_leads', 'assignees'],
    ['list_leads', 'open_tasks'],
  ])("%s expand=%s (default compact view) passes the SDK client's outputSchema check", async (name, expansion) => {
    const args = name === 'get_lead' ? { lead_id: leadWith(expansion), expand: [expansion] } : { limit: 100, expand: [expansion] };
    // The SDK client throws on a mismatch; its message names the field (kept short here).
    const r = (await area.admin.client.callTool({ name, arguments: args }).catch((e: Error) => expect.fail(e.message.slice(0, 400)))) as CallToolResult;
    expect(r.isError, name).toBeFalsy();
    expect(r.structuredContent).toBeTypeOf('object');
  });
});

describe('Lead writes: every write answers with effects including provider_writes [] and changes the store', () => {
  it('set_assignees replaces the set; effects name who was added', async () => {
    const id = area.take();
    const wanted = ids.members.slice(0, 2);
    const { structured } = await area.ok('set_assignees', { lead_id: id, member_ids: wanted });
    expectWriteEffects(structured);
    expect(sorted(structured.assignees.map((m: any) => m.id))).toEqual(sorted(wanted));
    expect(
      sorted(
        area
          .store()
          .leads.get(id)!
          .assignments.map((a) => a.member_id),
      ),
    ).toEqual(sorted(wanted));
  });
  it('set_lead_tags replaces the set; effects name the tags added', async () => {
    const id = area.take();
    const wanted = ids.tags.slice(0, 2);
    const before = [...area.store().leads.get(id)!.tag_ids];
    const { structured } = await area.ok('set_lead_tags', { lead_id: id, tag_ids: wanted });
    expectWriteEffects(structured);
    expect(sorted(structured.effects.tags_added)).toEqual(sorted(wanted.filter((t) => !before.includes(t))));
    expect(sorted(area.store().leads.get(id)!.tag_ids)).toEqual(sorted(wanted));
  });
  it('set_priority stars leads for the key owner only', async () => {
    const a = area.take();
    const b = area.take();
    const { structured } = await area.ok('set_priority', { lead_ids: [a, b], priority: true });
    expectWriteEffects(structured);
    expect(structured).toMatchObject({ object: 'lead_priority_update', matched_count: 2, priority: true });
    for (const id of [a, b]) expect(area.store().leads.get(id)!.priority_by.has('usr_ada')).toBe(true);
  });
  it('set_status sets the status and says so in effects', async () => {
    const id = area.take();
    const { structured } = await area.ok('set_status', { lead_id: id, status: 'automated' });
    expectWriteEffects(structured);
    expect(structured).toMatchObject({ object: 'lead', id, status: 'automated' });
    expect(structured.effects.lead_status_set).toBe(true);
    expect(area.store().leads.get(id)!.status).toBe('automated');
  });
  it("mark_read and mark_unread write and clear the owner's receipt", async () => {
    const id = area.take();
    const read = await area.ok('mark_read', { lead_id: id });
    expectWriteEffects(read.structured);
    expect(read.structured).toMatchObject({ object: 'lead', id, unread: false });
    expect(area.store().leads.get(id)!.receipts.has('usr_ada')).toBe(true);
    const unread = await area.ok('mark_unread', { lead_id: id });
    expectWriteEffects(unread.structured);
    expect(unread.structured.effects.read_receipts_cleared).toBe(1);
    expect(area.store().leads.get(id)!.receipts.has('usr_ada')).toBe(false);
  });
  it('mark_responded sets the team-wide responded flag', async () => {
    const id = area.take();
    const { structured } = await area.ok('mark_responded', { lead_id: id });
    expectWriteEffects(structured);
    expect(structured.responded).toBe(true);
    expect(area.store().leads.get(id)!.responded_at).not.toBeNull();
  });
  it('mark_booked with create_meeting records a mark_booked meeting', async () => {
    const id = area.take();
    const { structured } = await area.ok('mark_booked', { lead_id: id, create_meeting: true });
    expectWriteEffects(structured);
    expect(structured.state).toBe('booked');
    const meeting = area.store().meetings.get(structured.effects.meeting_created);
    expect(meeting?.lead_id).toBe(id);
    expect(meeting?.source).toBe('mark_booked');
  });
  it('mark_disqualified moves the lead to state disqualified', async () => {
    const id = area.take();
    const { structured } = await area.ok('mark_disqualified', { lead_id: id });
    expectWriteEffects(structured);
    expect(structured.state).toBe('disqualified');
    expect(area.store().leads.get(id)!.state).toBe('disqualified');
  });
});

describe('invalid_id is for a malformed or wrong-kind id; a bad count of ids is invalid_request, as the API answers', () => {
  it.each([
    ['set_priority', 'PUT', 'leads/priority', { lead_ids: [], priority: true }, 'lead_ids'],
    ['set_assignees', 'PUT', 'leads/lead_abc123/assignees', { member_ids: Array.from({ length: 101 }, (_, i) => `usr_u${i}_acme`) }, 'member_ids'],
  ] as const)("%s: an id list of the wrong size gets the API's own code", async (tool, method, path, body, param) => {
    const direct = await fetch(`${area.sandbox.baseUrl}/v1/workspaces/acme/${path}`, {
      method,
      headers: { authorization: `Bearer ${SANDBOX_KEYS.admin}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    const api = ((await direct.json()) as { error: { code: string; param?: string } }).error;
    expect(api).toMatchObject({ code: 'invalid_request', param });
    const before = area.proxy.requests.length;
    const e = await callErr(area.admin, tool, { ...body, ...(tool === 'set_assignees' ? { lead_id: 'lead_abc123' } : {}) });
    expect(area.proxy.requests.length).toBe(before);
    expect({ code: e.error.code, param: e.error.param }).toEqual({ code: api.code, param: api.param });
  });
});

describe("An API error comes back as isError with the API's code and a next step", () => {
  it('the relay sees a call that does reach the API (so "no request" above is a real observation)', async () => {
    const before = area.proxy.requests.length;
    await callOk(area.admin, 'get_lead', { lead_id: area.leads[0].id, fields: ['email'] });
    expect(area.proxy.requests.slice(before)).toEqual([`GET /v1/workspaces/acme/leads/${area.leads[0].id}`]);
  });
  it('not_found for a well-formed but unknown lead id', async () => {
    const before = area.proxy.requests.length;
    const e = await callErr(area.admin, 'get_lead', { lead_id: 'lead_doesnotexist0' });
    expect(e.error).toMatchObject({ code: 'not_found', status: 404, param: 'lead_id' });
    expect(e.nextStep).toContain('list_leads');
    expect(area.proxy.requests.length).toBe(before + 1);
  });
  it('workspace_forbidden: the rep key asks for globex', async () => {
    const e = await callErr(area.rep, 'list_leads', { workspace: 'globex' });
    expect(e.error).toMatchObject({ code: 'workspace_forbidden', status: 403 });
    expect(e.nextStep).toContain('list_workspaces');
  });
});

const L = 'lead_abc123';
const INVALID: InvalidCall[] = [
  ['list_leads', { limit: 0 }, 'invalid_request', 'limit'],
  ['get_lead', { lead_id: 'tsk_abc123' }, 'invalid_id', 'lead_id'],
  ['list_replies', { lead_id: 'rep_abc123' }, 'invalid_id', 'lead_id'],
  ['get_assignees', { lead_id: 123 }, 'invalid_id', 'lead_id'],
  ['set_assignees', { lead_id: L, member_ids: ['ada'] }, 'invalid_id', 'member_ids.0'],
  ['list_lead_tags', { cursor: '' }, 'invalid_request', 'cursor'],
  ['get_lead_tags', { lead_id: L, extra: true }, 'invalid_request', 'extra'],
  ['set_lead_tags', { lead_id: L, tag_ids: ['ctg_abc_def'] }, 'invalid_id', 'tag_ids.0'],
  ['set_priority', { lead_ids: ['msg_abc'], priority: true }, 'invalid_id', 'lead_ids.0'],
  ['set_status', { lead_id: L, status: 'maybe' }, 'invalid_request', 'status'],
  ['mark_read', { lead_id: L, workspace: 'Not A Slug' }, 'invalid_request', 'workspace'],
  ['mark_unread', { lead_id: 'msg_abc123' }, 'invalid_id', 'lead_id'],
  ['mark_responded', { lead_id: L, note: 'done' }, 'invalid_request', 'note'],
  ['mark_booked', { lead_id: L, create_meeting: 'yes' }, 'invalid_request', 'create_meeting'],
  ['mark_disqualified', { lead_id: L, reengage_approved: 1 }, 'invalid_request', 'reengage_approved'],
];

everyToolCovered(area, INVALID);
