import { defineTool, listOf, writeOutput } from '../src/mcp/tool-kit.js';
import { WRITE_VIEW, runWrite } from './support/write.js';

export const taskTools = [
  defineTool({
    endpoint: 'list_tasks',
    userIds: ['assignee_id'],
    title: 'List tasks',
    description: 'Follow-up tasks, by due date. Filter by lead, assignee, status, task_type, due-day window. Deleted tasks never appear.',
    docs: { status: 'open or completed.' },
    output: listOf('task'),
  }),
  defineTool({
    endpoint: 'create_task',
    userIds: ['assignee_id'],
    title: 'Create a task',
    description: 'Creates a follow-up task on a lead, assigned to you unless assignee_id names another assignable member. Not idempotent.',
    docs: { assignee_id: 'Assignable user id (default: you).' },
    extra: WRITE_VIEW,
    did: 'created',
    output: writeOutput('task'),
    run: runWrite(['lead_id', 'task_type', 'status', 'due_date', 'due_time', 'assignee_id', 'notes']),
  }),
  defineTool({
    endpoint: 'update_task',
    userIds: ['assignee_id'],
    title: 'Update a task',
    description: "Changes a task's due day, due time, notes or assignee; null clears a due day, time or notes.",
    docs: { assignee_id: 'New assignable user id.' },
    did: 'updated',
    output: writeOutput('task'),
    run: runWrite(['status', 'due_date', 'due_time', 'assignee_id', 'notes']),
    confirm: {
      when: (a: { notes?: string | null }) => a.notes !== undefined,
      asks: 'when notes is given, replacing or clearing the notes it has',
      change: (a: { notes?: string | null }) => `Its notes are ${a.notes === null ? 'cleared' : 'replaced'}: what they say now is lost.`,
    },
  }),
  defineTool({
    endpoint: 'complete_task',
    title: 'Complete a task',
    description: 'Marks a task completed; again changes nothing. Tasks are never reopened.',
    did: 'completed',
    output: writeOutput('task'),
    run: runWrite(['status', 'completed_at']),
  }),
  defineTool({
    endpoint: 'delete_task',
    title: 'Delete a task',
    description: 'Deletes a task for good: it leaves every read. For work that was done use complete_task.',
    did: 'deleted',
    output: writeOutput('task'),
    run: runWrite(['lead_id']),
    confirm: { change: () => 'It is deleted: it disappears from every read, and no call restores it.' },
  }),
];
