import type { Client, CallToolResult } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/index.js';
import { sandbox } from '../client/helpers.js';
import { inProcessServer } from '../helpers/in-process.js';
import { asksFirst } from '../../src/mcp/confirm/confirm.js';
import { annotationsFor } from '../../src/mcp/declare/annotations.js';
import { ALL_TOOLS } from '../../tools/index.js';

/** The server in this process and a client that can be asked (elicitation) and always declines: each question is kept. */
let sb: Sandbox;
let started: Awaited<ReturnType<typeof inProcessServer>>;
let client: Client;
const questions: string[] = [];
beforeAll(async () => {
  sb = await sandbox({ leads: 20 });
  started = await inProcessServer(sb, {}, (c) =>
    c.setRequestHandler('elicitation/create', async (req) => {
      questions.push(req.params.message);
      return { action: 'decline' };
    }),
  );
  client = started.client;
});
afterAll(async () => {
  await started.close();
  await sb.close();
});

const ask = async (name: string, args: Record<string, unknown>) => {
  const before = questions.length;
  const r = (await client.callTool({ name, arguments: args })) as CallToolResult;
  expect(r.isError).toBe(true);
  expect((r.content[0] as { text: string }).text).toContain('"declined"');
  expect(questions.length).toBe(before + 1);
  return questions.at(-1)!;
};

/** A task made for the test (create_task does not ask); its id. */
async function newTask(leadId: string, due: string, notes: string): Promise<string> {
  const made = (await client.callTool({ name: 'create_task', arguments: { lead_id: leadId, due_date: due, notes } })) as CallToolResult;
  return (made.structuredContent as { id: string }).id;
}

const leads = () => sb.store.leads.inGroup('acme').filter((l) => l.state === 'active');

describe('confirmation questions name the person, the object and the change from → to', () => {
  it('set_status unsubscribed: the lead by name and email, and its status from what it is now', async () => {
    const l = leads()[0]!;
    const q = await ask('set_status', { lead_id: l.id, status: 'dnc' });
    expect(q).toContain(`Lead ${l.id} («${l.first_name} ${l.last_name}», «${l.email}»)`);
    expect(q).toContain(`Its status changes from ${l.status} to unsubscribed (do not contact)`);
    // The status is local: the person is not told that campaigns stop, since they do not (the spec: no upstream change).
    expect(q).toContain('in this inbox only: the sending platform is not told');
    expect(q).not.toMatch(/outreach .*stops/);
  });

  it('mark_booked asks (it completes open tasks for good), naming the state change', async () => {
    const l = leads()[1]!;
    const q = await ask('mark_booked', { lead_id: l.id });
    expect(q).toContain(`Its state changes from ${l.state} to booked`);
    expect(q).toContain('completed for good');
  });

  it('delete_task: the task by due day and the first words of its notes, and the lead it belongs to', async () => {
    const l = leads()[2]!;
    const id = await newTask(l.id, '2026-12-03', 'Send the pricing sheet and the security questionnaire before Friday noon please');
    const q = await ask('delete_task', { task_id: id });
    expect(q).toContain(`Task ${id} (open, due 2026-12-03, notes «Send the pricing sheet and the security questionnaire…»)`);
    expect(q).toContain(`on lead ${l.id} («${l.first_name} ${l.last_name}», «${l.email}»)`);
    expect(q).toContain('It is deleted');
  });

  it('set_meeting_outcome with force on a meeting without an outcome: nothing is said to be overwritten', async () => {
    const m = sb.store.meetings.inGroup('acme').find((x) => !x.outcome)!;
    const q = await ask('set_meeting_outcome', { meeting_id: m.id, outcome: 'showed', force: true });
    expect(q).toContain(`Meeting ${m.id} at «${m.starts_at}»`);
    expect(q).toContain('outcome now none recorded');
    expect(q).toContain('Its outcome is set to showed (none is recorded yet)');
    expect(q).not.toMatch(/overwrit/);
  });

  it('set_meeting_outcome with force on a recorded outcome says from → to', async () => {
    const m = sb.store.meetings.inGroup('acme').find((x) => x.outcome)!;
    const q = await ask('set_meeting_outcome', { meeting_id: m.id, outcome: 'rescheduled', force: true });
    expect(q).toContain(`Its recorded outcome changes from ${m.outcome} to rescheduled`);
  });

  it('a batch asks once, naming every lead', async () => {
    const ls = leads().slice(3, 6);
    const q = await ask('set_status', { lead_ids: ls.map((l) => l.id), status: 'unsubscribed' });
    expect(q.startsWith('3 leads: ')).toBe(true);
    for (const l of ls) expect(q).toContain(`lead ${l.id} («${l.first_name} ${l.last_name}», «${l.email}»)`);
    expect(q).toContain('For each lead: its status becomes unsubscribed');
    expect(ls.every((l) => sb.store.leads.get(l.id)!.status === l.status)).toBe(true);
  });
});

describe('--confirm destructive asks before every tool annotated destructiveHint, on the calls that destroy', () => {
  it('every tool annotated destructive says which of its calls ask (a confirm spec), and no other tool asks', () => {
    for (const t of ALL_TOOLS) {
      const destructive = annotationsFor(t.endpoint, t.title).destructiveHint === true;
      expect({ tool: t.name, asks: t.confirm !== undefined }).toEqual({ tool: t.name, asks: destructive });
      if (!destructive) expect(asksFirst('destructive', t, {})).toBe(false);
    }
  });

  it('mark_responded on 12 leads asks once, naming them; declined, none is marked', async () => {
    const ls = leads().slice(0, 12);
    expect(ls).toHaveLength(12);
    const stamps = ls.map((l) => l.responded_at);
    const q = await ask('mark_responded', { lead_ids: ls.map((l) => l.id) });
    expect(q.startsWith('12 leads: ')).toBe(true);
    expect(q).toContain('no call undoes it');
    expect(ls.map((l) => sb.store.leads.get(l.id)!.responded_at)).toEqual(stamps);
  });

  it('set_lead_tags with [] asks before removing every tag; declined, the tags stay', async () => {
    const l = leads()[7]!;
    const before = [...l.tag_ids];
    const q = await ask('set_lead_tags', { lead_id: l.id, tag_ids: [] });
    expect(q).toContain(`Lead ${l.id}`);
    expect(q).toContain('Every manual tag is removed from it.');
    expect(sb.store.leads.get(l.id)!.tag_ids).toEqual(before);
  });

  it('update_task replacing or clearing notes asks, saying what is lost', async () => {
    const l = leads()[8]!;
    const id = await newTask(l.id, '2026-12-04', 'Ask about the pilot budget');
    expect(await ask('update_task', { task_id: id, notes: null })).toContain('Its notes are cleared: what they say now is lost.');
    expect(await ask('update_task', { task_id: id, notes: 'New notes' })).toContain('Its notes are replaced');
  });
});
