import type { CallToolResult } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import { TOOL_ENDPOINTS } from '../../src/api/endpoints.js';
import { ALL_TOOLS } from '../../tools/index.js';
import { useInProcessServer } from '../helpers/in-process.js';
import { recordsNoChange } from '../../src/mcp/view/unchanged.js';

const server = useInProcessServer();

const call = async (name: string, args: Record<string, unknown>) => {
  const r = (await server.client.callTool({ name, arguments: args })) as CallToolResult;
  return { isError: r.isError === true, structured: r.structuredContent as any, text: (r.content[0] as { text: string }).text };
};

/** The verb a write's answer must use, from what the table says it is. */
const verbOf = (e: (typeof TOOL_ENDPOINTS)[number], did: string | undefined) => (e.method === 'DELETE' ? 'deleted' : e.status === 201 ? 'created' : did);

describe('a write the API made no change with says so, not its verb', () => {
  it('complete_task twice: completed, then unchanged; mark_responded over a batch counts the leads already responded apart', async () => {
    const lead = server.sb.store.leads.inGroup('acme').find((l) => l.state === 'active')!.id;
    const made = await call('create_task', { lead_id: lead, notes: 'Call back' });
    const first = await call('complete_task', { task_id: made.structured.id });
    expect(first.structured.effects.task_completed).toBe(true);
    expect(first.text.split('\n')[0]).toMatch(/^complete_task: task \S+ completed\b/);
    const second = await call('complete_task', { task_id: made.structured.id });
    expect(recordsNoChange(second.structured.effects)).toBe(true);
    expect(second.text).toContain(`complete_task: task ${made.structured.id} unchanged (the API's effects record no change)`);
    expect(second.text).not.toMatch(/ completed\b: /);

    // Two leads nobody has answered yet (no responded stamp since their newest reply).
    const two = server.sb.store.leads
      .inGroup('acme')
      .filter((l) => l.state === 'active' && l.last_inbound_at !== null && (l.responded_at === null || l.responded_at < l.last_inbound_at))
      .slice(0, 2)
      .map((l) => l.id);
    expect(two).toHaveLength(2);
    await call('mark_responded', { lead_id: two[0]! });
    const batch = await call('mark_responded', { lead_ids: two });
    const rows = batch.text.split('\n').filter((l) => two.some((id) => l.startsWith(`| ${id} `)));
    const read = batch.structured.results.map((x: { effects: unknown }) => recordsNoChange(x.effects));
    expect(read).toEqual([true, false]);
    expect(rows[0]).toContain(' | unchanged | ');
    expect(rows[1]).toContain(' | marked responded | ');
    expect(batch.text.split('\n')[0]).toBe("mark_responded: 1 of 2 leads marked responded; 1 unchanged (the API's effects record no change).");
  });
});

describe('a field the API says a write changed is shown, even when the write did not name it', () => {
  it('update_task due_date null clears the due time too: both are shown as null, in both forms', async () => {
    const lead = server.sb.store.leads.inGroup('acme').find((l) => l.state === 'active')!.id;
    const made = await call('create_task', { lead_id: lead, notes: 'Call at ten', due_date: '2026-12-02', due_time: '10:00' });
    const r = await call('update_task', { task_id: made.structured.id, due_date: null });
    expect(r.structured.effects.task_fields_changed).toEqual(expect.arrayContaining(['due_date', 'due_time']));
    expect(r.structured).toMatchObject({ due_date: null, due_time: null });
    expect(r.text).toContain('due_date=null');
    expect(r.text).toContain('due_time=null');
  });
});

describe('every write answer says what happened and to what', () => {
  it('the table: deletes say deleted, creates say created, and every write with its own answer names what it did', () => {
    for (const e of TOOL_ENDPOINTS.filter((x) => x.write)) {
      const tool = ALL_TOOLS.find((t) => t.name === e.name)!;
      if (!tool.did) continue;
      expect(tool.did, e.name).toBe(verbOf(e, tool.did));
    }
    expect(ALL_TOOLS.filter((t) => t.endpoint.write && t.did).length).toBeGreaterThanOrEqual(12);
  });

  it('every write tool of the registry, run: the first line names the record and what was done, the effects follow verbatim', async () => {
    const store = server.sb.store;
    const leads = store.leads.inGroup('acme').filter((l) => l.state === 'active');
    const meeting = store.meetings.inGroup('acme').find((m) => !m.outcome && !m.locked)!;
    const members = store.membersOf('acme').map((m) => m.member_id);
    const tags = store.leadTags.inGroup('acme').map((t) => t.id);
    const made = await call('create_task', { lead_id: leads[0]!.id, due_date: '2026-12-01', notes: 'Send pricing' });
    const runs: [string, Record<string, unknown>][] = [
      ['create_note', { lead_id: leads[0]!.id, body: 'Asked for pricing' }],
      ['update_task', { task_id: made.structured.id, notes: 'Send pricing and deck' }],
      ['complete_task', { task_id: made.structured.id }],
      ['set_status', { lead_id: leads[1]!.id, status: 'interested' }],
      ['mark_read', { lead_id: leads[1]!.id }],
      ['mark_unread', { lead_id: leads[1]!.id }],
      ['mark_responded', { lead_id: leads[1]!.id }],
      ['mark_booked', { lead_id: leads[2]!.id }],
      ['mark_disqualified', { lead_id: leads[3]!.id }],
      ['set_meeting_outcome', { meeting_id: meeting.id, outcome: 'showed' }],
      ['set_assignees', { lead_id: leads[5]!.id, member_ids: members.slice(0, 2) }],
      ['set_lead_tags', { lead_id: leads[6]!.id, tag_ids: tags.slice(0, 2) }],
      ['set_priority', { lead_ids: [leads[7]!.id, leads[8]!.id], priority: true }],
    ];
    const answers: [string, Awaited<ReturnType<typeof call>>, Record<string, unknown>][] = [['create_task', made, {}]];
    for (const [n, a] of runs) answers.push([n, await call(n, a), a]);
    const extra = await call('create_task', { lead_id: leads[4]!.id, notes: 'to delete' });
    answers.push(['delete_task', await call('delete_task', { task_id: extra.structured.id }), {}]);
    // Every write of the registry is run: a new write tool fails here until its answer is checked.
    expect(answers.map(([n]) => n).sort()).toEqual(
      ALL_TOOLS.filter((t) => t.endpoint.write)
        .map((t) => t.name)
        .sort(),
    );
    for (const [name, r, args] of answers) {
      const tool = ALL_TOOLS.find((t) => t.name === name)!;
      expect(r.isError, `${name}: ${r.text}`).toBe(false);
      expect(tool.did, `${name} says what it did`).toBeTruthy();
      const lines = r.text.split('\n');
      const head = lines.find((l) => l.startsWith(`${name}: `))!;
      // The record by its id; a write answered by a list names its lead, a write over many leads names each.
      const what = r.structured.id ?? args.lead_id ?? (args.lead_ids as string[]).join(', ');
      // The verb of the write, or "unchanged" where the effects record no change (the lead was already so).
      const verb = recordsNoChange(r.structured.effects) ? 'unchanged' : tool.did;
      expect(head, name).toMatch(new RegExp(`^${name}: [\\w ]*?${verb}\\b`));
      expect(head, name).toContain(String(what));
      expect(lines.at(-1), name).toBe(`effects: ${JSON.stringify(r.structured.effects)}`);
      expect(r.text, `${name} answers in words, not the generic JSON`).not.toMatch(/^\{/);
    }
    const get = (n: string) => answers.find(([x]) => x === n)![1];
    const deleted = get('delete_task');
    expect(deleted.text).not.toContain('status=open');
    expect(deleted.structured.effects.task_deleted ?? true).toBe(true);
    // A set's answer says the set it is now and what was added and removed, as the effects do.
    const list = (v: string[]) => (v.length ? v.join(', ') : 'none');
    for (const [n, added, removed] of [
      ['set_assignees', 'assignees_added', 'assignees_removed'],
      ['set_lead_tags', 'tags_added', 'tags_removed'],
    ] as const) {
      const r = get(n);
      expect(r.structured.effects[added].length, n).toBeGreaterThan(0);
      expect(r.text).toContain(`added ${list(r.structured.effects[added])}; removed ${list(r.structured.effects[removed])}`);
      for (const item of r.structured[n === 'set_assignees' ? 'assignees' : 'tags']) expect(r.text).toContain(`${item.id} (${item.name})`);
    }
    const star = get('set_priority');
    expect(star.structured.effects.lead_priorities_changed.length).toBeGreaterThan(0);
    expect(star.text).toContain(`starred for you ${star.structured.lead_ids.join(', ')}; changed ${list(star.structured.effects.lead_priorities_changed)}`);
    const again = await call('set_priority', { lead_ids: [leads[7]!.id], priority: true });
    expect(again.text).toContain(`changed none; already starred ${leads[7]!.id}`);
  });
});
