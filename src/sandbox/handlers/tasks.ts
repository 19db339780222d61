import { randomBytes } from 'node:crypto';
import { type Ctx, type AreaHandlers, wsOf } from '../context.js';
import { fail, notFound } from '../errors.js';
import { compareKeys, keysetPage } from '../paging.js';
import { iso } from '../seed/time.js';
import { SORT } from '../store/store.js';
import type { LeadRec, TaskRec } from '../store/types.js';
import { taskView } from '../views/work.js';
import { leadIn, newestReplyId } from './notes.js';

/** A live task of the path workspace; deleted tasks do not exist for any call. */
function taskIn(ctx: Ctx): TaskRec {
  const t = ctx.store.tasks.get(ctx.path.task_id ?? '');
  if (!t || t.workspace !== wsOf(ctx).id || t.deleted_at !== null) notFound('task', 'task_id');
  return t;
}

/** Assignees must be assignable members of the workspace (spec: Tasks rules). */
function checkAssignee(ctx: Ctx, userId: string): void {
  const ws = wsOf(ctx).id;
  const m = ctx.store.memberOfUser(ws, userId);
  const active = ctx.store.users.get(userId)?.active === true;
  if (!m?.assignable || !active) {
    fail('unprocessable', `${userId} is not an assignable member of workspace ${ws}; list members with assignable=true.`, { param: 'assignee_id' });
  }
}

/** A time of day means nothing without a day to hang it on. */
function checkDue(due_date: string | null, due_time: string | null): void {
  if (due_time !== null && due_date === null) fail('invalid_request', 'due_time needs a due_date.', { param: 'due_time' });
}

/** Members' one-part user ids in the workspace, for the assignee filter. */
function checkMemberFilter(ctx: Ctx, userId: string): void {
  if (!ctx.store.memberOfUser(wsOf(ctx).id, userId)) {
    fail('unprocessable', `${userId} is not a member of workspace ${wsOf(ctx).id}.`, { param: 'assignee_id' });
  }
}

const written = (t: TaskRec, effects: Record<string, unknown>, status?: number) => ({
  ...(status ? { status } : {}),
  body: { ...taskView(t), effects: { ...effects, provider_writes: [] } },
});

export const tasksHandlers = {
  list_tasks(ctx) {
    const ws = wsOf(ctx);
    const q = ctx.query;
    let lead: LeadRec | undefined;
    if (q.lead_id !== undefined) lead = leadIn(ctx, q.lead_id, 'lead_id');
    if (q.assignee_id !== undefined) checkMemberFilter(ctx, q.assignee_id);
    if (q.due_after !== undefined && q.due_before !== undefined && q.due_after >= q.due_before) {
      fail('invalid_request', 'due_after must be an earlier day than due_before (both bounds are exclusive).', { param: 'due_before' });
    }
    const filter = (t: TaskRec): boolean =>
      t.deleted_at === null &&
      (lead === undefined || t.lead_id === lead.id) &&
      (q.assignee_id === undefined || t.assignee_id === q.assignee_id) &&
      (q.status === undefined || t.status === q.status) &&
      (q.task_type === undefined || t.task_type === q.task_type) &&
      (q.due_after === undefined || (t.due_date !== null && t.due_date > q.due_after)) &&
      (q.due_before === undefined || (t.due_date !== null && t.due_date < q.due_before));
    const items = lead
      ? [...ctx.store.tasksByLead.get(lead.id)].sort((a, b) => compareKeys(SORT.task(a), SORT.task(b)))
      : ctx.store.tasks.sorted(ws.id, 'task', SORT.task);
    return {
      body: keysetPage({
        cursors: ctx.cursors,
        endpoint: 'list_tasks',
        scope: ws.id,
        req: ctx.page(),
        items,
        keyOf: SORT.task,
        filter,
        view: taskView,
      }),
    };
  },

  create_task(ctx) {
    const ws = wsOf(ctx);
    const b = ctx.body;
    const lead = leadIn(ctx, b.lead_id, 'lead_id');
    const owner = ctx.caller.owner.id;
    if (b.assignee_id !== undefined) checkAssignee(ctx, b.assignee_id);
    const due_date = b.due_date ?? null;
    const due_time = b.due_time ?? null;
    checkDue(due_date, due_time);
    const now = iso(ctx.now());
    const t = ctx.store.addTask({
      id: `tsk_${randomBytes(9).toString('hex')}`,
      workspace: ws.id,
      lead_id: lead.id,
      reply_id: newestReplyId(ctx, lead),
      title: null,
      notes: b.notes ?? null,
      task_type: null,
      due_date,
      due_time,
      status: 'open',
      creator_id: owner,
      assignee_id: b.assignee_id ?? owner,
      completed_at: null,
      created_at: now,
      sequence: null,
      deleted_at: null,
    });
    return written(t, { task_created: true }, 201);
  },

  update_task(ctx) {
    const t = taskIn(ctx);
    const b = ctx.body;
    if (b.assignee_id !== undefined) checkAssignee(ctx, b.assignee_id);
    const next = {
      due_date: b.due_date !== undefined ? b.due_date : t.due_date,
      due_time: b.due_time !== undefined ? b.due_time : t.due_time,
      notes: b.notes !== undefined ? b.notes : t.notes,
      assignee_id: b.assignee_id ?? t.assignee_id,
    };
    // Clearing the day clears the time with it, so a date-only edit never leaves a dangling time.
    if (b.due_date === null && b.due_time === undefined) next.due_time = null;
    checkDue(next.due_date, next.due_time);
    const changed = (Object.keys(next) as (keyof typeof next)[]).filter((k) => next[k] !== t[k]);
    Object.assign(t, next);
    if (changed.includes('due_date')) ctx.store.tasks.touch(t.workspace);
    return written(t, { task_fields_changed: changed });
  },

  complete_task(ctx) {
    const t = taskIn(ctx);
    const { completed } = ctx.body;
    if (completed === false) {
      fail('invalid_request', 'Reopening a task is not supported in v1: completed can only be true (or left out).', { param: 'completed' });
    }
    const changed = t.status !== 'completed';
    if (changed) {
      t.status = 'completed';
      t.completed_at = iso(ctx.now());
    }
    return written(t, { task_completed: changed });
  },

  delete_task(ctx) {
    const t = taskIn(ctx);
    t.deleted_at = iso(ctx.now());
    return written(t, { task_deleted: true });
  },
} satisfies AreaHandlers;
