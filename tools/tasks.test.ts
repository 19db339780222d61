import { beforeAll, describe, expect, it } from 'vitest';
import { expectWriteEffects } from '../test/helpers/tool-calls.js';
import { everyToolCovered, firstId, type InvalidCall, toolArea } from '../test/helpers/tool-area.js';

/** The tasks tools (tools/tasks.ts), served in process: valid calls, then one invalid call each. */
const area = toolArea('tasks');
const ids = { task: '' };
beforeAll(async () => {
  ids.task = await firstId(area, 'list_tasks', { status: 'open', limit: 5 });
});

describe('Tasks: list, create, update, complete, delete (soft)', () => {
  let created = '';
  it('list_tasks filters by status', async () => {
    const { structured } = await area.ok('list_tasks', { status: 'open', limit: 20 });
    expect(structured.data.length).toBeGreaterThan(0);
    for (const t of structured.data) expect(t.status).toBe('open');
  });
  it('create_task creates an open task by the key owner', async () => {
    const lead = area.take();
    const { structured } = await area.ok('create_task', { lead_id: lead, due_date: '2026-12-01', notes: 'Call back about pricing', view: 'full' });
    expectWriteEffects(structured);
    // The agent's own notes come back as it wrote them, not fenced as outsider text.
    expect(structured.notes).toBe('Call back about pricing');
    expect(structured).toMatchObject({ object: 'task', lead_id: lead, status: 'open', creator_id: 'usr_ada', due_date: '2026-12-01' });
    // title is null: left out of both forms.
    expect(structured).not.toHaveProperty('title');
    created = structured.id;
    expect(area.store().tasks.get(created)?.lead_id).toBe(lead);
  });
  it('update_task changes the due time', async () => {
    const { structured } = await area.ok('update_task', { task_id: created, due_time: '09:30' });
    expectWriteEffects(structured);
    expect(structured.due_time).toBe('09:30');
    expect(area.store().tasks.get(created)?.due_time).toBe('09:30');
  });
  it('complete_task completes it', async () => {
    const { structured } = await area.ok('complete_task', { task_id: created });
    expectWriteEffects(structured);
    expect(structured.status).toBe('completed');
    expect(structured.completed_at).toMatch(/Z$/);
  });
  it('delete_task hides it from reads but keeps the row', async () => {
    const { structured } = await area.ok('delete_task', { task_id: ids.task });
    expectWriteEffects(structured);
    expect(area.store().tasks.get(ids.task)?.deleted_at).not.toBeNull();
    const lead = area.store().tasks.get(ids.task)!.lead_id;
    const after = await area.ok('list_tasks', { lead_id: lead });
    // The lead's only open task may be gone: an empty list leaves structuredContent, as it leaves the text.
    expect((after.structured.data ?? []).map((t: any) => t.id)).not.toContain(ids.task);
  });
});

const L = 'lead_abc123';
const INVALID: InvalidCall[] = [
  ['list_tasks', { assignee_id: 'usr_ada_globex' }, 'invalid_id', 'assignee_id'],
  ['create_task', { lead_id: L, due_date: '2026-13-01' }, 'invalid_request', 'due_date'],
  ['update_task', { task_id: 'tsk_abc123', due_time: '25:00' }, 'invalid_request', 'due_time'],
  ['complete_task', { task_id: 'lead_abc123' }, 'invalid_id', 'task_id'],
  ['delete_task', { task_id: 'tsk_abc123', force: true }, 'invalid_request', 'force'],
];

everyToolCovered(area, INVALID);
