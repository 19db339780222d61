import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { TOOL_ENDPOINTS } from '../../src/api/endpoints.js';
import { ALL_TOOLS } from '../../tools/index.js';
import { useInProcessServer } from '../helpers/in-process.js';

const server = useInProcessServer();

const call = async (name: string, args: Record<string, unknown>) => {
  const r = (await server.client.callTool({ name, arguments: args })) as CallToolResult;
  return { isError: r.isError === true, structured: r.structuredContent as any, text: (r.content[0] as { text: string }).text };
};

/** The verb a write's answer must use, from what the table says it is. */
const verbOf = (e: (typeof TOOL_ENDPOINTS)[number], did: string | undefined) => (e.method === 'DELETE' ? 'deleted' : e.status === 201 ? 'created' : did);

describe('every write answer says what happened and to what', () => {
  it('the table: deletes say deleted, creates say created, and every write with its own answer names what it did', () => {
    for (const e of TOOL_ENDPOINTS.filter((x) => x.write)) {
      const tool = ALL_TOOLS.find((t) => t.name === e.name)!;
      if (!tool.did) continue;
      expect(tool.did, e.name).toBe(verbOf(e, tool.did));
    }
    expect(ALL_TOOLS.filter((t) => t.endpoint.write && t.did).length).toBeGreaterThanOrEqual(12);
  });

  it('each write tool with its own answer, run: the first line names the record and what was done, the effects follow verbatim', async () => {
    const leads = server.sb.store.leads.inGroup('acme').filter((l) => l.state === 'active');
    const meeting = server.sb.store.meetings.inGroup('acme').find((m) => !m.outcome && !m.locked)!;
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
    ];
    const answers = [['create_task', made] as const, ...(await Promise.all(runs.map(async ([n, a]) => [n, await call(n, a)] as const)))];
    const extra = await call('create_task', { lead_id: leads[4]!.id, notes: 'to delete' });
    answers.push(['delete_task', await call('delete_task', { task_id: extra.structured.id })]);
    for (const [name, r] of answers) {
      const tool = ALL_TOOLS.find((t) => t.name === name)!;
      expect(r.isError, `${name}: ${r.text}`).toBe(false);
      const lines = r.text.split('\n');
      const head = lines.find((l) => l.startsWith(`${name}: `))!;
      expect(head, name).toMatch(new RegExp(`^${name}: \\w+ ${r.structured.id} ${tool.did}(:|$)`));
      expect(lines.at(-1), name).toBe(`effects: ${JSON.stringify(r.structured.effects)}`);
    }
    const deleted = answers.find(([n]) => n === 'delete_task')![1];
    expect(deleted.text).not.toContain('status=open');
    expect(deleted.structured.effects.task_deleted ?? true).toBe(true);
  });
});
