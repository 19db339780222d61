import type { MeetingRec, NoteRec, TaskRec } from '../store/types.js';

/** task resource. The soft-delete stamp stays inside the sandbox. */
export function taskView(t: TaskRec) {
  const { deleted_at: _deleted, ...rest } = t;
  return { object: 'task' as const, ...rest };
}

export function noteView(n: NoteRec) {
  return { object: 'note' as const, ...n };
}

/**
 * meeting resource. internal_notes only on the single read and only for keys holding
 * meetings:write; meet_link is never returned (it is not even stored).
 */
export function meetingView(m: MeetingRec, opts: { internalNotes?: boolean } = {}) {
  const { internal_notes, ...rest } = m;
  return { object: 'meeting' as const, ...rest, ...(opts.internalNotes ? { internal_notes } : {}) };
}
