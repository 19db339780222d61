import { z } from 'zod';
import { type IdKind, idShape, isId } from './ids.js';
import { LEAD_STATUS_INPUT, closed } from './enums.js';
import { dayProblem, explainedString } from './dates.js';

/**
 * Request bodies, strict: an unknown field is refused (general rule 5). Size limits the
 * spec leaves open are our choice, recorded in docs/spec-gaps.md.
 */
export const BODY_LIMITS = {
  note_body: 10_000,
  task_notes: 5_000,
  override_value: 5_000,
  overrides: 50,
  device_name: 100,
  payload_bytes: 1_048_576,
} as const;

/** The kind of each id field of the bodies, for what is derived from the table (listers.ts). */
const BODY_ID_KINDS = new WeakMap<z.ZodType, IdKind>();

/** An id inside a body. The issue carries `api_code` so the sandbox answers invalid_id. */
export function bodyId(kind: IdKind) {
  const field = z.string().refine((v) => isId(kind, v), { message: `must be ${idShape(kind)}`, params: { api_code: 'invalid_id' } });
  BODY_ID_KINDS.set(field, kind);
  return field;
}

/** The id kind a body field takes (one id, or a list of them; optional or not), if it takes ids. */
export function bodyIdKind(field: z.ZodType): IdKind | undefined {
  let f: unknown = field;
  while (f instanceof z.ZodOptional || f instanceof z.ZodNullable || f instanceof z.ZodArray) f = f instanceof z.ZodArray ? f.element : f.unwrap();
  return BODY_ID_KINDS.get(f as z.ZodType);
}

const day = explainedString(dayProblem);
const wallClock = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, { message: 'must be a wall-clock time HH:MM (24-hour)' });

/** Whether a body field takes a day or a wall-clock time, whatever it allows besides (null, omitted). */
export function isTimeField(field: z.ZodType | undefined): boolean {
  let f: unknown = field;
  while (f instanceof z.ZodOptional || f instanceof z.ZodNullable) f = f.unwrap();
  return f === day || f === wallClock;
}

export const bodies = {
  empty: z.strictObject({}),
  setAssignees: z.strictObject({ member_ids: z.array(bodyId('member')).max(100) }),
  setLeadTags: z.strictObject({ tag_ids: z.array(bodyId('lead_tag')).max(100) }),
  setPriority: z.strictObject({
    lead_ids: z.array(bodyId('lead')).min(1).max(100),
    priority: z.boolean(),
  }),
  setStatus: z.strictObject({ status: z.enum(LEAD_STATUS_INPUT) }),
  markBooked: z.strictObject({ create_meeting: z.boolean().optional() }),
  markDisqualified: z.strictObject({ reengage_approved: z.boolean().optional() }),
  createTask: z.strictObject({
    lead_id: bodyId('lead'),
    due_date: day.nullable().optional(),
    due_time: wallClock.nullable().optional(),
    notes: z.string().max(BODY_LIMITS.task_notes).nullable().optional(),
    assignee_id: bodyId('user').optional(),
  }),
  updateTask: z
    .strictObject({
      due_date: day.nullable().optional(),
      due_time: wallClock.nullable().optional(),
      notes: z.string().max(BODY_LIMITS.task_notes).nullable().optional(),
      assignee_id: bodyId('user').optional(),
    })
    .refine((b) => Object.keys(b).length > 0, { message: 'give at least one of due_date, due_time, notes, assignee_id' }),
  completeTask: z.strictObject({ completed: z.boolean().optional() }),
  createNote: z.strictObject({
    lead_id: bodyId('lead'),
    body: z.string().trim().min(1).max(BODY_LIMITS.note_body),
  }),
  setMeetingOutcome: z.strictObject({ outcome: closed('meeting_outcome'), force: z.boolean().optional() }),
  renderTemplate: z.strictObject({
    lead_id: bodyId('lead'),
    resolve_ai_variables: z.boolean().optional(),
    overrides: z
      .record(z.string().regex(/^[A-Za-z0-9_.]{1,64}$/), z.string().max(BODY_LIMITS.override_value))
      .refine((o) => Object.keys(o).length <= BODY_LIMITS.overrides, { message: `at most ${BODY_LIMITS.overrides} overrides` })
      .optional(),
  }),
  createMobileSession: z.strictObject({ device_name: z.string().min(1).max(BODY_LIMITS.device_name).optional() }),
} as const;

/** Fields a task write refuses by name (Tasks rules): a clearer message than "unknown field". */
export const TASK_REFUSED_FIELDS: Record<string, string> = {
  title: 'title is set only on tasks a sequence creates; manual tasks have no title',
  company_id: 'tasks cannot reference a company',
  opportunity_id: 'tasks cannot reference an opportunity',
};
