import { createHash } from 'node:crypto';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Sandbox, SANDBOX_KEYS, startSandbox } from '../../src/sandbox/index.js';
import { SPECIAL_EMAILS } from '../../src/sandbox/seed/leads.js';
import { TOOL_ENDPOINTS } from '../../src/api/endpoints.js';
import { LEAD_TRIAGE_FIELDS } from '../../tools/leads.js';
import { TEST_NOW } from '../../scripts/harness/sandbox.js';
import { type Relay, type McpSession, type Ok, callErr, callOk, startRelay, expectWriteEffects, startMcp, toolNames } from './helpers.js';

/**
 * Every tool over stdio against a sandbox of this process, reached through a counting
 * relay: the relay's request log says whether a call reached the API at all.
 */
let sandbox: Sandbox;
let proxy: Relay;
let admin: McpSession;
let rep: McpSession;

/** Ids found through the list tools, as a model would find them. */
const ids = {
  leads: [] as any[],
  members: [] as string[],
  tags: [] as string[],
  task: '',
  meeting: '',
  eventType: '',
  template: '',
  aiTemplate: { id: '', vars: [] as string[] },
  folder: '',
  campaign: '',
  files: { lead: '', attachment: '' },
};
/** Each write takes ordinary leads of its own, so writes never meet. */
let next = 20;
const take = (): string => {
  const l = ids.leads[next++];
  if (!l) throw new Error('ran out of leads');
  return l.id as string;
};
const special = new Set<string>(Object.values(SPECIAL_EMAILS));

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, now: TEST_NOW, logLevel: 'silent' });
  proxy = await startRelay(sandbox.baseUrl);
  [admin, rep] = await Promise.all([
    startMcp(['--api-key', SANDBOX_KEYS.admin, '--base-url', proxy.url, '--workspace', 'acme', '--log-level', 'warn']),
    startMcp(['--log-level', 'warn'], { REPLY_INBOX_API_KEY: SANDBOX_KEYS.rep, REPLY_INBOX_BASE_URL: proxy.url }),
  ]);
  // Two fields of 200 leads fit the result budget; 200 whole records would not.
  const leads = await callOk(admin, 'list_leads', { limit: 200, fields: ['email', 'state'] });
  ids.leads = leads.structured.data.filter((l: any) => !special.has(l.email) && l.state === 'active');
  ids.members = (await callOk(admin, 'list_members', { assignable: true })).structured.data.map((m: any) => m.id);
  ids.tags = (await callOk(admin, 'list_lead_tags', {})).structured.data.map((t: any) => t.id);
  ids.task = (await callOk(admin, 'list_tasks', { status: 'open', limit: 5 })).structured.data[0].id;
  ids.eventType = (await callOk(admin, 'list_event_types', { active: true, public: true })).structured.data[0].id;
  const templates = (await callOk(admin, 'list_templates', { limit: 200 })).structured.data;
  ids.template = templates[0].id;
  const ai = templates.find((t: any) => (t.ai_variables ?? []).length > 0);
  ids.aiTemplate = { id: ai.id, vars: ai.ai_variables.map((v: any) => v.name) };
  ids.folder = (await callOk(admin, 'list_template_folders', {})).structured.data[0].id;
  const frida = (await callOk(admin, 'list_leads', { email: SPECIAL_EMAILS.attachments })).structured.data[0];
  ids.files.lead = frida.id;
});
afterAll(async () => {
  await Promise.all([admin?.close(), rep?.close()]);
  await proxy?.close();
  await sandbox?.close();
});

const store = () => sandbox.store;

describe('tools/list: the admin key is served every tool of the endpoint table', () => {
  it('one distinct tool per tool endpoint, each with an input and an output schema', async () => {
    const { tools } = await admin.client.listTools();
    expect(tools).toHaveLength(TOOL_ENDPOINTS.length);
    expect(new Set(tools.map((t) => t.name)).size).toBe(TOOL_ENDPOINTS.length);
    for (const t of tools) {
      expect(t.inputSchema.type).toBe('object');
      expect(t.outputSchema?.type).toBe('object');
    }
  });
});

/** Tools called with valid arguments below, to check at the end that none was left out. */
const calledOk = new Set<string>();
const ok = async (name: string, args: Record<string, unknown> = {}, s: McpSession = admin): Promise<Ok> => {
  const r = await callOk(s, name, args);
  calledOk.add(name);
  return r;
};

describe('Workspaces tools answer valid calls with the API resource as structuredContent', () => {
  it('get_me: the admin key acts for Ada and reaches three workspaces with two-part member ids', async () => {
    const { structured } = await ok('get_me');
    expect(structured.owner.id).toBe('usr_ada');
    expect(structured.workspaces.map((w: any) => w.id).sort()).toEqual(['acme', 'globex', 'initech']);
    for (const w of structured.workspaces) expect(w.member_id).toMatch(/^usr_[A-Za-z0-9]+_[A-Za-z0-9]+$/);
  });
  it('get_capabilities: api_version v1 and the lead status enum', async () => {
    const { structured } = await ok('get_capabilities');
    expect(structured.object).toBe('capabilities');
    expect(structured.api_version).toBe('v1');
    expect(structured.enums.lead_status).toEqual(['interested', 'not_interested', 'automated', 'unsubscribed', 'untagged']);
  });
  it('list_workspaces: a list envelope of the three workspaces', async () => {
    const { structured } = await ok('list_workspaces');
    expect(structured).toMatchObject({ object: 'list', has_more: false, next_cursor: null });
    expect(structured.data.map((w: any) => w.id).sort()).toEqual(['acme', 'globex', 'initech']);
  });
  it('get_workspace: include sdr_notes adds the playbook field', async () => {
    const { structured } = await ok('get_workspace', { include: ['sdr_notes'] });
    expect(structured).toMatchObject({ object: 'workspace', id: 'acme' });
    expect('sdr_notes' in structured).toBe(true);
  });
  it('list_members: assignable members carry two-part ids', async () => {
    const { structured } = await ok('list_members', { assignable: true });
    expect(structured.object).toBe('list');
    expect(structured.data.length).toBeGreaterThan(0);
    for (const m of structured.data) {
      expect(m.assignable).toBe(true);
      expect(m.id).toMatch(/^usr_[A-Za-z0-9]+_acme$/);
    }
  });
});

describe('Lead reads: compact views by default, fields and view=full on request', () => {
  it('list_leads: compact rows carry only triage fields', async () => {
    const { structured } = await ok('list_leads', { limit: 10 });
    expect(structured.data).toHaveLength(10);
    const allowed = new Set(['object', ...LEAD_TRIAGE_FIELDS]);
    for (const row of structured.data) for (const k of Object.keys(row)) expect(allowed.has(k), k).toBe(true);
    expect(structured.has_more).toBe(true);
    expect(structured.next_cursor).toBeTypeOf('string');
  });
  it('list_leads: fields gives exactly those fields plus id', async () => {
    const { structured } = await ok('list_leads', { limit: 3, fields: ['email'] });
    for (const row of structured.data) expect(Object.keys(row).sort()).toEqual(['email', 'id', 'object']);
  });
  it("list_leads: view=full gives the API's record as is, nulls included", async () => {
    const { structured } = await ok('list_leads', { limit: 3, view: 'full' });
    for (const row of structured.data) {
      for (const k of ['latest_reply_id', 'indexed_at', 'last_action_at', 'booked_at', 'campaign_id', 'workspace']) expect(k in row, k).toBe(true);
    }
  });
  it('get_lead: the lead with the expansion asked for', async () => {
    const id = ids.leads.find((l) => store().leads.get(l.id)!.tag_ids.length > 0)!.id as string;
    const { structured } = await ok('get_lead', { lead_id: id, expand: ['tags'] });
    expect(structured.id).toBe(id);
    expect(structured.latest_reply).toContain(store().leads.get(id)!.first_name!);
    expect(structured.tags.map((t: any) => t.id)).toEqual(store().leads.get(id)!.tag_ids);
  });
  it("list_replies: the lead's indexed replies", async () => {
    const id = ids.leads[0].id;
    const { structured } = await ok('list_replies', { lead_id: id });
    expect(structured.data.map((r: any) => r.id).sort()).toEqual(
      store()
        .repliesByLead.get(id)
        .map((r) => r.id)
        .sort(),
    );
    for (const r of structured.data) expect(r.lead_id).toBe(id);
  });
  it("get_assignees: the lead's assignees as members", async () => {
    const id = ids.leads[1].id;
    const { structured } = await ok('get_assignees', { lead_id: id });
    expect(structured.data.map((m: any) => m.id).sort()).toEqual(
      store()
        .leads.get(id)!
        .assignments.map((a) => a.member_id)
        .sort(),
    );
  });
  it("list_lead_tags and get_lead_tags: the roster and one lead's tags", async () => {
    const roster = await ok('list_lead_tags');
    expect(roster.structured.data.length).toBeGreaterThan(0);
    for (const t of roster.structured.data) expect(t.id).toMatch(/^ltg_/);
    const id = ids.leads[2].id;
    const { structured } = await ok('get_lead_tags', { lead_id: id });
    expect(structured.data.map((t: any) => t.id)).toEqual(store().leads.get(id)!.tag_ids);
  });
});

describe('Compact lead views: expanded records keep the fields their published outputSchema requires', () => {
  /** A lead whose expansion holds a record with a null field, the case the compact view trims. */
  const leadWith = (kind: string): string => {
    const s = store();
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
    const r = (await admin.client.callTool({ name, arguments: args }).catch((e: Error) => expect.fail(e.message.slice(0, 400)))) as CallToolResult;
    expect(r.isError, name).toBeFalsy();
    expect(r.structuredContent).toBeTypeOf('object');
  });
});

describe('Lead writes: every write answers with effects including provider_writes [] and changes the store', () => {
  it('set_assignees replaces the set; effects name who was added', async () => {
    const id = take();
    const wanted = ids.members.slice(0, 2);
    const { structured } = await ok('set_assignees', { lead_id: id, member_ids: wanted });
    expectWriteEffects(structured);
    expect(structured.data.map((m: any) => m.id).sort()).toEqual([...wanted].sort());
    expect(
      store()
        .leads.get(id)!
        .assignments.map((a) => a.member_id)
        .sort(),
    ).toEqual([...wanted].sort());
  });
  it('set_lead_tags replaces the set; effects name the tags added', async () => {
    const id = take();
    const wanted = ids.tags.slice(0, 2);
    const before = [...store().leads.get(id)!.tag_ids];
    const { structured } = await ok('set_lead_tags', { lead_id: id, tag_ids: wanted });
    expectWriteEffects(structured);
    expect(structured.effects.tags_added.sort()).toEqual(wanted.filter((t) => !before.includes(t)).sort());
    expect([...store().leads.get(id)!.tag_ids].sort()).toEqual([...wanted].sort());
  });
  it('set_priority stars leads for the key owner only', async () => {
    const a = take();
    const b = take();
    const { structured } = await ok('set_priority', { lead_ids: [a, b], priority: true });
    expectWriteEffects(structured);
    expect(structured).toMatchObject({ object: 'lead_priority_update', matched_count: 2, priority: true });
    for (const id of [a, b]) expect(store().leads.get(id)!.priority_by.has('usr_ada')).toBe(true);
  });
  it('set_status sets the status and says so in effects', async () => {
    const id = take();
    const { structured } = await ok('set_status', { lead_id: id, status: 'automated' });
    expectWriteEffects(structured);
    expect(structured).toMatchObject({ object: 'lead', id, status: 'automated' });
    expect(structured.effects.lead_status_set).toBe(true);
    expect(store().leads.get(id)!.status).toBe('automated');
  });
  it("mark_read and mark_unread write and clear the owner's receipt", async () => {
    const id = take();
    const read = await ok('mark_read', { lead_id: id });
    expectWriteEffects(read.structured);
    expect(read.structured).toMatchObject({ object: 'lead', id, unread: false });
    expect(store().leads.get(id)!.receipts.has('usr_ada')).toBe(true);
    const unread = await ok('mark_unread', { lead_id: id });
    expectWriteEffects(unread.structured);
    expect(unread.structured.effects.read_receipts_cleared).toBe(1);
    expect(store().leads.get(id)!.receipts.has('usr_ada')).toBe(false);
  });
  it('mark_responded sets the team-wide responded flag', async () => {
    const id = take();
    const { structured } = await ok('mark_responded', { lead_id: id });
    expectWriteEffects(structured);
    expect(structured.responded).toBe(true);
    expect(store().leads.get(id)!.responded_at).not.toBeNull();
  });
  it('mark_booked with create_meeting records a mark_booked meeting', async () => {
    const id = take();
    const { structured } = await ok('mark_booked', { lead_id: id, create_meeting: true });
    expectWriteEffects(structured);
    expect(structured.state).toBe('booked');
    const meeting = store().meetings.get(structured.effects.meeting_created);
    expect(meeting?.lead_id).toBe(id);
    expect(meeting?.source).toBe('mark_booked');
  });
  it('mark_disqualified moves the lead to state disqualified', async () => {
    const id = take();
    const { structured } = await ok('mark_disqualified', { lead_id: id });
    expectWriteEffects(structured);
    expect(structured.state).toBe('disqualified');
    expect(store().leads.get(id)!.state).toBe('disqualified');
  });
});

describe('Conversations: the thread as text and an attachment as an embedded resource', () => {
  it('get_conversation lists the messages with their attachment ids', async () => {
    const { structured } = await ok('get_conversation', { lead_id: ids.files.lead, limit: 10 });
    expect(structured.lead_id).toBe(ids.files.lead);
    expect(structured.messages.length).toBeGreaterThan(0);
    const files = structured.messages.flatMap((m: any) => m.attachments ?? []);
    // A file name is the sender's text: it arrives fenced.
    expect(files.some((f: any) => f.filename.includes('>signed-nda.pdf<'))).toBe(true);
    ids.files.attachment = files.find((f: any) => f.filename.includes('>signed-nda.pdf<')).id;
  });
  it('download_attachment embeds the bytes with their size and sha256', async () => {
    const { structured, result } = await ok('download_attachment', { lead_id: ids.files.lead, attachment_id: ids.files.attachment });
    const lead = store().leads.get(ids.files.lead)!;
    const rec = store()
      .conversation(lead)
      .flatMap((m) => m.attachments)
      .find((a) => a.id === ids.files.attachment)!;
    const bytes = Buffer.from(rec.content, 'utf8');
    expect(structured).toMatchObject({ attachment_id: ids.files.attachment, size_bytes: bytes.length });
    expect(structured.filename).toMatch(/^<untrusted-[0-9a-f]{6}>signed-nda\.pdf<\/untrusted-[0-9a-f]{6}>$/);
    expect(structured.sha256).toBe(createHash('sha256').update(bytes).digest('hex'));
    const embedded = result.content.find((c) => c.type === 'resource') as { resource: { blob: string; uri: string } } | undefined;
    expect(Buffer.from(embedded!.resource.blob, 'base64').equals(bytes)).toBe(true);
    expect(embedded!.resource.uri).toContain(ids.files.attachment);
  });
});

describe('Tasks: list, create, update, complete, delete (soft)', () => {
  let created = '';
  it('list_tasks filters by status', async () => {
    const { structured } = await ok('list_tasks', { status: 'open', limit: 20 });
    expect(structured.data.length).toBeGreaterThan(0);
    for (const t of structured.data) expect(t.status).toBe('open');
  });
  it('create_task creates an open task by the key owner', async () => {
    const lead = take();
    const { structured } = await ok('create_task', { lead_id: lead, due_date: '2026-12-01', notes: 'Call back about pricing', view: 'full' });
    expectWriteEffects(structured);
    // The agent's own notes come back as it wrote them, not fenced as outsider text.
    expect(structured.notes).toBe('Call back about pricing');
    expect(structured).toMatchObject({ object: 'task', lead_id: lead, status: 'open', creator_id: 'usr_ada', title: null, due_date: '2026-12-01' });
    created = structured.id;
    expect(store().tasks.get(created)?.lead_id).toBe(lead);
  });
  it('update_task changes the due time', async () => {
    const { structured } = await ok('update_task', { task_id: created, due_time: '09:30' });
    expectWriteEffects(structured);
    expect(structured.due_time).toBe('09:30');
    expect(store().tasks.get(created)?.due_time).toBe('09:30');
  });
  it('complete_task completes it', async () => {
    const { structured } = await ok('complete_task', { task_id: created });
    expectWriteEffects(structured);
    expect(structured.status).toBe('completed');
    expect(structured.completed_at).toMatch(/Z$/);
  });
  it('delete_task hides it from reads but keeps the row', async () => {
    const { structured } = await ok('delete_task', { task_id: ids.task });
    expectWriteEffects(structured);
    expect(store().tasks.get(ids.task)?.deleted_at).not.toBeNull();
    const lead = store().tasks.get(ids.task)!.lead_id;
    const after = await ok('list_tasks', { lead_id: lead });
    expect(after.structured.data.map((t: any) => t.id)).not.toContain(ids.task);
  });
});

describe('Notes: create and list', () => {
  it('create_note adds a note by the key owner; list_notes shows it', async () => {
    const lead = take();
    const { structured } = await ok('create_note', { lead_id: lead, body: 'Asked for pricing in EUR.' });
    expectWriteEffects(structured);
    // The answer is compact: the note's id, its lead and effects; the store holds the whole note.
    expect(structured).toMatchObject({ object: 'note', lead_id: lead });
    expect(store().notes.get(structured.id)).toMatchObject({ author_id: 'usr_ada', body: 'Asked for pricing in EUR.' });
    const list = await ok('list_notes', { lead_id: lead });
    expect(list.structured.data.map((n: any) => n.id)).toContain(structured.id);
  });
});

describe('Meetings: list, get, record an outcome', () => {
  it('list_meetings outcome none gives meetings without an outcome', async () => {
    const { structured } = await ok('list_meetings', { outcome: ['none'], limit: 5 });
    expect(structured.data.length).toBeGreaterThan(0);
    // The compact view leaves absent values out.
    for (const m of structured.data) expect(m.outcome).toBeUndefined();
    ids.meeting = structured.data[0].id;
  });
  it('get_meeting: one meeting, internal_notes present for a meetings:write key', async () => {
    const { structured } = await ok('get_meeting', { meeting_id: ids.meeting });
    expect(structured).toMatchObject({ object: 'meeting', id: ids.meeting });
    expect('internal_notes' in structured).toBe(true);
  });
  it('set_meeting_outcome records it and locks the meeting', async () => {
    const { structured } = await ok('set_meeting_outcome', { meeting_id: ids.meeting, outcome: 'showed' });
    expectWriteEffects(structured);
    expect(structured).toMatchObject({ outcome: 'showed', locked: true });
    expect(structured.effects.meeting_outcome_set).toBe(true);
    expect(store().meetings.get(ids.meeting)?.outcome).toBe('showed');
  });
});

describe('Scheduling: event types and free slots', () => {
  it('list_event_types and get_event_type with hosts and form fields', async () => {
    const list = await ok('list_event_types', {});
    expect(list.structured.data.map((e: any) => e.id)).toContain(ids.eventType);
    const { structured } = await ok('get_event_type', { event_type_id: ids.eventType });
    expect(structured.id).toBe(ids.eventType);
    expect(Array.isArray(structured.hosts)).toBe(true);
    expect(Array.isArray(structured.form_fields)).toBe(true);
  });
  it('get_slots: availability inside the window asked for', async () => {
    const from = new Date(Date.now() + 86_400_000);
    const to = new Date(from.getTime() + 14 * 86_400_000);
    const { structured } = await ok('get_slots', { event_type_id: ids.eventType, from: from.toISOString(), to: to.toISOString(), timezone: 'Europe/Berlin' });
    expect(structured).toMatchObject({ object: 'availability', event_type_id: ids.eventType, timezone: 'Europe/Berlin' });
    expect(structured.slots.length > 0 || structured.reason !== null).toBe(true);
    for (const s of structured.slots) {
      expect(Date.parse(s.start)).toBeGreaterThanOrEqual(from.getTime());
      expect(Date.parse(s.end)).toBeLessThanOrEqual(to.getTime());
    }
  });
});

describe('Templates: read, render with AI overrides, folders and assets', () => {
  it('list_templates and get_template', async () => {
    const list = await ok('list_templates', { folder_id: ids.folder });
    for (const t of list.structured.data) expect(t.folder_id).toBe(ids.folder);
    const { structured } = await ok('get_template', { template_id: ids.template });
    expect(structured).toMatchObject({ object: 'template', id: ids.template });
    expect(Array.isArray(structured.variables)).toBe(true);
  });
  it('render_template fills AI variables from overrides; ready_to_send follows unresolved', async () => {
    const lead = ids.leads[3].id;
    const overrides = Object.fromEntries(ids.aiTemplate.vars.map((v, i) => [v, `Override number ${i} for ${v}`]));
    const { structured } = await ok('render_template', { template_id: ids.aiTemplate.id, lead_id: lead, overrides });
    expect(structured).toMatchObject({ object: 'rendered_template', template_id: ids.aiTemplate.id, lead_id: lead });
    for (const [name, value] of Object.entries(overrides)) {
      expect(structured.body).toContain(value);
      expect(structured.unresolved).not.toContain(name);
    }
    expect(structured.ready_to_send).toBe(structured.unresolved.length === 0);
  });
  it('list_template_folders and list_assets', async () => {
    const folders = await ok('list_template_folders');
    expect(folders.structured.data.map((f: any) => f.id)).toContain(ids.folder);
    const assets = await ok('list_assets', { kind: 'link' });
    expect(assets.structured.data.length).toBeGreaterThan(0);
    for (const a of assets.structured.data) expect(a.kind).toBe('link');
  });
});

describe('Campaigns and sequences', () => {
  it('list_sequences with expanded templates', async () => {
    const { structured } = await ok('list_sequences', { expand: ['templates'] });
    expect(structured.data.length).toBeGreaterThan(0);
    for (const s of structured.data) expect(Array.isArray(s.steps)).toBe(true);
  });
  it('list_campaigns: the roster with tags', async () => {
    const { structured } = await ok('list_campaigns', {});
    expect(structured.data.length).toBeGreaterThan(0);
    for (const c of structured.data) expect(c.id).toMatch(/^cmp_/);
    ids.campaign = structured.data[0].id;
  });
  it('list_campaign_tags: tags with campaign counts', async () => {
    const { structured } = await ok('list_campaign_tags', {});
    expect(structured.data.length).toBeGreaterThan(0);
    for (const t of structured.data) expect(Number.isInteger(t.campaign_count)).toBe(true);
  });
});

describe('Insights: summary, campaign figures, daily series', () => {
  it('get_insights_summary for a 30-day window', async () => {
    const { structured } = await ok('get_insights_summary', { from: '2026-10-21', to: '2026-11-20' });
    expect(structured.object).toBe('insights_summary');
    expect(structured.workspace).toBe('acme');
    expect(Object.keys(structured.funnel).sort()).toEqual(['all_responses', 'booked_meetings', 'positive_responses', 'showed_meetings']);
  });
  it('get_campaign_insights for one campaign', async () => {
    const { structured } = await ok('get_campaign_insights', { campaign_id: ids.campaign, from: '2026-10-21', to: '2026-11-20' });
    expect(structured.data.map((c: any) => c.campaign_id)).toEqual([ids.campaign]);
  });
  it('get_daily_insights: a dense series, one point per day', async () => {
    const { structured } = await ok('get_daily_insights', { from: '2026-11-01', to: '2026-11-20' });
    const dates = structured.data.map((p: any) => p.date).sort();
    expect(dates).toHaveLength(20);
    expect(dates[0]).toBe('2026-11-01');
    expect(dates[19]).toBe('2026-11-20');
  });
});

describe('Coverage: every served tool was called with valid arguments', () => {
  it('every tool of tools/list is among the calls above', async () => {
    expect([...calledOk].sort()).toEqual(await toolNames(admin));
  });
});

/** One invalid call per tool: wrong id kind, unknown argument, out-of-range number or wrong type. */
const L = 'lead_abc123';
const INVALID: [tool: string, args: Record<string, unknown>, code: string, param: string][] = [
  ['get_me', { verbose: true }, 'invalid_request', 'verbose'],
  ['get_capabilities', { section: 'enums' }, 'invalid_request', 'section'],
  ['list_workspaces', { limit: 5 }, 'invalid_request', 'limit'],
  ['get_workspace', { workspace: 42 }, 'invalid_request', 'workspace'],
  ['list_members', { limit: 0 }, 'invalid_request', 'limit'],
  ['list_leads', { limit: 500 }, 'invalid_request', 'limit'],
  ['get_lead', { lead_id: 'tsk_abc123' }, 'invalid_id', 'lead_id'],
  ['list_replies', { lead_id: 'rep_abc123' }, 'invalid_id', 'lead_id'],
  ['get_assignees', { lead_id: 123 }, 'invalid_id', 'lead_id'],
  ['set_assignees', { lead_id: L, member_ids: ['usr_ada'] }, 'invalid_id', 'member_ids.0'],
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
  ['get_conversation', { lead_id: L, max_body_chars: 10 }, 'invalid_request', 'max_body_chars'],
  ['download_attachment', { lead_id: L, attachment_id: 'msg_abc123' }, 'invalid_id', 'attachment_id'],
  ['list_tasks', { assignee_id: 'usr_ada_globex' }, 'invalid_id', 'assignee_id'],
  ['create_task', { lead_id: L, due_date: '2026-13-01' }, 'invalid_request', 'due_date'],
  ['update_task', { task_id: 'tsk_abc123', due_time: '25:00' }, 'invalid_request', 'due_time'],
  ['complete_task', { task_id: 'lead_abc123' }, 'invalid_id', 'task_id'],
  ['delete_task', { task_id: 'tsk_abc123', force: true }, 'invalid_request', 'force'],
  ['list_notes', { order: 'sideways' }, 'invalid_request', 'order'],
  ['create_note', { lead_id: L, body: 'x'.repeat(10_001) }, 'invalid_request', 'body'],
  ['list_meetings', { host_id: 'usr_ada_globex' }, 'invalid_id', 'host_id'],
  ['get_meeting', { meeting_id: 'mtg' }, 'invalid_id', 'meeting_id'],
  ['set_meeting_outcome', { meeting_id: 'mtg_abc123', outcome: 'won' }, 'invalid_request', 'outcome'],
  ['list_event_types', { active: 'yes' }, 'invalid_request', 'active'],
  ['get_event_type', { event_type_id: 'evt_a/../b' }, 'invalid_id', 'event_type_id'],
  ['get_slots', { event_type_id: 'evt_abc123', timezone: 'Mars/Olympus_Mons' }, 'invalid_request', 'timezone'],
  ['list_templates', { folder_id: 'tpl_abc123' }, 'invalid_id', 'folder_id'],
  ['get_template', { template_id: 'tfd_abc123' }, 'invalid_id', 'template_id'],
  ['render_template', { template_id: 'tpl_abc123', lead_id: L, overrides: { ai_opener: 5 } }, 'invalid_request', 'overrides.ai_opener'],
  ['list_template_folders', { limit: 201 }, 'invalid_request', 'limit'],
  ['list_assets', { kind: 'podcast' }, 'invalid_request', 'kind'],
  ['list_sequences', { visibility: 'public' }, 'invalid_request', 'visibility'],
  ['list_campaigns', { limit: 2.5 }, 'invalid_request', 'limit'],
  ['list_campaign_tags', { cursor: 7 }, 'invalid_request', 'cursor'],
  ['get_insights_summary', { member_id: 'usr_ada' }, 'invalid_id', 'member_id'],
  ['get_campaign_insights', { from: '2026-02-30' }, 'invalid_request', 'from'],
  ['get_daily_insights', { metric: 'opens' }, 'invalid_request', 'metric'],
];

describe('Arguments the published schema refuses are a tool error naming the argument, and never reach the API', () => {
  it('the table covers every tool once', async () => {
    expect(INVALID.map(([t]) => t).sort()).toEqual(await toolNames(admin));
  });
  it.each(INVALID)('%s %j → %s on %s', async (tool, args, code, param) => {
    const before = proxy.requests.length;
    const e = await callErr(admin, tool, args);
    expect(e.error.code).toBe(code);
    expect(e.error.param).toBe(param);
    expect(e.error.status).toBe(400);
    expect(e.error.message.length).toBeGreaterThan(0);
    expect(e.nextStep).toMatch(/\S.*\.$/);
    expect(proxy.requests.slice(before)).toEqual([]);
  });
});

describe('invalid_id is for a malformed or wrong-kind id; a bad count of ids is invalid_request, as the API answers', () => {
  it.each([
    ['set_priority', 'PUT', 'leads/priority', { lead_ids: [], priority: true }, 'lead_ids'],
    ['set_assignees', 'PUT', 'leads/lead_abc123/assignees', { member_ids: Array.from({ length: 101 }, (_, i) => `usr_u${i}_acme`) }, 'member_ids'],
  ] as const)("%s: an id list of the wrong size gets the API's own code", async (tool, method, path, body, param) => {
    const direct = await fetch(`${sandbox.baseUrl}/v1/workspaces/acme/${path}`, {
      method,
      headers: { authorization: `Bearer ${SANDBOX_KEYS.admin}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    const api = ((await direct.json()) as { error: { code: string; param?: string } }).error;
    expect(api).toMatchObject({ code: 'invalid_request', param });
    const before = proxy.requests.length;
    const e = await callErr(admin, tool, { ...body, ...(tool === 'set_assignees' ? { lead_id: 'lead_abc123' } : {}) });
    expect(proxy.requests.length).toBe(before);
    expect({ code: e.error.code, param: e.error.param }).toEqual({ code: api.code, param: api.param });
  });
});

describe("An API error comes back as isError with the API's code and a next step", () => {
  it('the relay sees a call that does reach the API (so "no request" above is a real observation)', async () => {
    const before = proxy.requests.length;
    await callOk(admin, 'get_lead', { lead_id: ids.leads[0].id, fields: ['email'] });
    expect(proxy.requests.slice(before)).toEqual([`GET /v1/workspaces/acme/leads/${ids.leads[0].id}`]);
  });
  it('not_found for a well-formed but unknown lead id', async () => {
    const before = proxy.requests.length;
    const e = await callErr(admin, 'get_lead', { lead_id: 'lead_doesnotexist0' });
    expect(e.error).toMatchObject({ code: 'not_found', status: 404, param: 'lead_id' });
    expect(e.nextStep).toContain('list_leads');
    expect(proxy.requests.length).toBe(before + 1);
  });
  it('workspace_forbidden: the rep key asks for globex', async () => {
    const e = await callErr(rep, 'list_leads', { workspace: 'globex' });
    expect(e.error).toMatchObject({ code: 'workspace_forbidden', status: 403 });
    expect(e.nextStep).toContain('list_workspaces');
  });
  it('not_found for a lead of another workspace (tenancy), through the rep key', async () => {
    const globexLead = [...store().leads.inGroup('globex')][0]!;
    const e = await callErr(rep, 'get_conversation', { lead_id: globexLead.id });
    expect(e.error).toMatchObject({ code: 'not_found', status: 404 });
    expect(e.nextStep.length).toBeGreaterThan(0);
  });
});
