import type { CallToolResult } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import { inZone } from '../../tools/support/zone-time.js';
import { useInProcessServer } from '../helpers/in-process.js';

const server = useInProcessServer();

const call = async (name: string, args: Record<string, unknown>) => {
  const r = (await server.client.callTool({ name, arguments: args })) as CallToolResult;
  return { isError: r.isError === true, structured: r.structuredContent as any, text: (r.content[0] as { text: string }).text };
};

describe('a cut conversation names what cut it', () => {
  it("limit:1 on a long thread names the messages not shown and the call that reads them, not the service's 200", async () => {
    const lead = [...server.sb.store.leads.all()].find((l) => l.email === 'lena.long@chatty.example')!;
    const r = await call('get_conversation', { lead_id: lead.id, limit: 1 });
    expect(r.structured.counts).toMatchObject({ shown: 1, returned_by_api: 200, older_not_shown: 199 });
    expect(r.text).toContain('the newest 1 of the 200 messages the API returned');
    expect(r.text).toContain(
      `199 older messages not shown: to read them, as many per call as the result budget holds, call get_conversation with {"lead_id":"${lead.id}","limit":199,"offset":1}.`,
    );
  });

  it("at limit 200 the service's own cap is what cuts it", async () => {
    const lead = [...server.sb.store.leads.all()].find((l) => l.email === 'lena.long@chatty.example')!;
    const r = await call('get_conversation', { lead_id: lead.id, limit: 200, max_body_chars: 200 });
    expect(r.text).toContain('The thread is longer than the 200 newest messages the API serves');
  });
});

describe('set_status points to the tools of the lifecycle states', () => {
  it.each([
    ['booked', 'mark_booked'],
    ['disqualified', 'mark_disqualified'],
  ])('status %s names %s, before any request', async (status, tool) => {
    const lead = server.sb.store.leads.inGroup('acme')[0]!;
    const r = await call('set_status', { lead_id: lead.id, status });
    expect(r.isError).toBe(true);
    expect(r.text).toContain(`${tool} does that`);
    expect(r.text.endsWith(`call ${tool}.`)).toBe(true);
  });
});

describe('a repeated delete_task says the task is already deleted', () => {
  it('the second delete answers, not as an error, that nothing changed', async () => {
    const lead = server.sb.store.leads.inGroup('acme')[3]!;
    const made = await call('create_task', { lead_id: lead.id, notes: 'to be deleted' });
    const first = await call('delete_task', { task_id: made.structured.id });
    expect(first.isError).toBe(false);
    const second = await call('delete_task', { task_id: made.structured.id });
    expect(second.isError).toBe(false);
    expect(second.text).toMatch(new RegExp(`task ${made.structured.id} is already deleted.*Nothing changed`));
    expect(second.structured.already_deleted).toBe(true);
  });

  it('a task never seen still answers not_found', async () => {
    const r = await call('delete_task', { task_id: 'tsk_doesnotexist' });
    expect(r.isError).toBe(true);
    expect(r.text).toContain('not_found');
  });
});

describe('get_slots shows times in the zone asked for, with the offset, in text and structuredContent alike', () => {
  it('Europe/Berlin days carry +01:00 or +02:00, the same in both forms', async () => {
    const et = [...server.sb.store.eventTypes.all()].find((e) => e.workspace === 'acme' && e.active)!;
    const from = new Date(Date.parse('2026-11-21T00:00:00Z'));
    const to = new Date(from.getTime() + 14 * 86_400_000);
    const r = await call('get_slots', { event_type_id: et.id, from: from.toISOString(), to: to.toISOString(), timezone: 'Europe/Berlin' });
    expect(r.isError).toBe(false);
    expect(r.text).toContain('Times in Europe/Berlin');
    expect(r.structured.days.length).toBeGreaterThan(0);
    for (const d of r.structured.days) {
      expect(d.utc_offset).toMatch(/^\+0[12]:00$/);
      expect(r.text).toContain(`${d.weekday} ${d.date} (UTC${d.utc_offset}): ${d.ranges.join(', ')}`);
    }
  });

  it("inZone keeps the instant and writes the zone's offset", () => {
    expect(inZone('2026-11-23T09:00:00Z', 'Europe/Berlin')).toBe('2026-11-23T10:00:00+01:00');
    expect(inZone('2026-07-01T09:30:00Z', 'Asia/Kolkata')).toBe('2026-07-01T15:00:00+05:30');
    expect(inZone('2026-07-01T09:30:00Z', 'America/New_York')).toBe('2026-07-01T05:30:00-04:00');
    expect(Date.parse(inZone('2026-07-01T09:30:00Z', 'America/New_York'))).toBe(Date.parse('2026-07-01T09:30:00Z'));
  });
});

describe('rates are rounded in the text, whole in structuredContent', () => {
  it('get_insights_summary prints no number with more than three decimals', async () => {
    const r = await call('get_insights_summary', {});
    expect(r.isError).toBe(false);
    expect(r.text).not.toMatch(/\d\.\d{4,}/);
  });
});

describe('member ids where a user id is taken: mapped when the server can, refused naming where the user id is shown', () => {
  it('create_task with a two-part member id from list_members assigns its one-part user', async () => {
    const members = await call('list_members', {});
    const ben = { id: 'usr_ben_acme' };
    expect(members.structured.data.map((m: { id: string }) => m.id)).toContain(ben.id);
    const lead = server.sb.store.leads.inGroup('acme')[5]!;
    const made = await call('create_task', { lead_id: lead.id, notes: 'member id', assignee_id: ben.id });
    expect(made.isError).toBe(false);
    expect(server.sb.store.tasks.get(made.structured.id)!.assignee_id).toBe('usr_ben');
  });

  it('list_tasks, list_notes and list_meetings read the same with either form', async () => {
    for (const [tool, param] of [
      ['list_tasks', 'assignee_id'],
      ['list_notes', 'author_id'],
      ['list_meetings', 'host_id'],
    ] as const) {
      const one = await call(tool, { [param]: 'usr_ben' });
      const two = await call(tool, { [param]: 'usr_ben_acme' });
      expect(two.isError, tool).toBe(false);
      expect(
        two.structured.data.map((x: { id: string }) => x.id),
        tool,
      ).toEqual(one.structured.data.map((x: { id: string }) => x.id));
    }
  });

  it('a member id of another workspace is refused before any request, naming the tools that show user ids', async () => {
    const r = await call('list_tasks', { assignee_id: 'usr_dee_globex' });
    expect(r.isError).toBe(true);
    expect(r.text).toContain('invalid_id');
    expect(r.text).toContain('list_tasks (assignee_id)');
  });
});
