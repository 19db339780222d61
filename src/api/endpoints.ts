import type { z } from 'zod';
import { TASK_REFUSED_FIELDS, bodies } from './bodies.js';
import {
  type Bucket,
  DAILY_METRICS,
  LEAD_DETAIL_EXPANSIONS,
  LIMITS,
  LEAD_LIST_EXPANSIONS,
  LEAD_STATUS_FILTER,
  MAX_EXPANSIONS,
  MEETING_OUTCOME_FILTER,
  ENUMS,
  type Scope,
} from './enums.js';
import type { IdKind } from './ids.js';
import { PAGING, type Param, p } from './params.js';

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
export type ApiErrorCode =
  | 'invalid_request'
  | 'invalid_cursor'
  | 'invalid_id'
  | 'unsupported_filter'
  | 'unsupported_sort'
  | 'missing_authorization'
  | 'malformed_key'
  | 'invalid_key'
  | 'key_revoked'
  | 'key_expired'
  | 'owner_deactivated'
  | 'insufficient_scope'
  | 'workspace_forbidden'
  | 'test_keys_unsupported'
  | 'not_found'
  | 'conflict'
  | 'unprocessable'
  | 'rate_limited'
  | 'too_many_concurrent'
  | 'internal_error'
  | 'upstream_error';

export type Toolset = 'workspaces' | 'leads' | 'conversations' | 'tasks' | 'notes' | 'meetings' | 'scheduling' | 'templates' | 'campaigns' | 'insights';

/**
 * A from/to window the service checks (insights, slots). `unit: 'day'` takes whole UTC days
 * with both ends included; `instant` takes a day (a `to` day includes itself) or a date-time.
 */
export interface WindowRule {
  readonly maxDays: number;
  /** Beyond the cap: refused (insights are "never silently truncated") or clamped (slots). */
  readonly over: 'refuse' | 'clamp';
  readonly unit: 'day' | 'instant';
  /** The window when a bound is left out: `back` ends now and reaches back; `forward` starts now. */
  readonly defaultDays: number;
  readonly runs: 'back' | 'forward';
  /** The parameter a refusal names. */
  readonly blame: 'from' | 'to';
}

/**
 * One endpoint of the v1 API. This table is the only place an endpoint is described: the
 * sandbox routes and validates with it, the client picks buckets and retry policy from it,
 * and the tools take their scope, read/write nature and annotations from it.
 */
export interface Endpoint {
  /** Stable name; for an inbox endpoint (one with a toolset) it is also the MCP tool's name. */
  readonly name: string;
  readonly method: Method;
  /** Path template; `{workspace}` and `{<kind>_id}` placeholders. */
  readonly path: string;
  /** Kind of each path id, for validation before anything is sent. */
  readonly pathIds: Readonly<Record<string, IdKind | 'workspace'>>;
  readonly scope: Scope | null;
  /** The bucket the spec's table names. */
  readonly bucket: Bucket;
  /** A query value that moves the call to the upstream bucket (include=counts, include=sdr_notes). */
  readonly upstreamWhen?: { readonly param: string; readonly values: readonly string[] };
  /** Our reading of the thread figure (30/min): see docs/spec-gaps.md. */
  readonly alsoMeters?: readonly Bucket[];
  // biome-ignore lint/suspicious/noExplicitAny: each param keeps its own value type
  readonly query: Readonly<Record<string, Param<any>>>;
  /** Query names the service accepts as aliases of another (starting_after → cursor). */
  readonly aliases?: Readonly<Record<string, string>>;
  readonly maxExpansions?: number;
  readonly body: z.ZodType | null;
  /** Body fields refused by name, with the reason (title on a task write), before the schema's "unknown field". */
  readonly refusedFields?: Readonly<Record<string, string>>;
  /** Arguments agents send under another name, and the name this endpoint takes (create_task title → notes). */
  readonly misnamed?: Readonly<Record<string, string>>;
  /** Values of a parameter that another endpoint sets (set_status status booked → mark_booked): the refusal names it. */
  readonly elsewhere?: Readonly<Record<string, Readonly<Record<string, string>>>>;
  /** A from/to window the service checks and bounds (insights, slots). */
  readonly window?: WindowRule;
  /** Its answer carries the key's rate_limits: the client takes its bucket figures from it. */
  readonly tellsLimits?: boolean;
  readonly status: 200 | 201;
  readonly returns: 'list' | 'object' | 'binary';
  /** The `object` kind of what comes back (the items, for a list). */
  readonly resource: string;
  /** Changes state (even if the bucket is not `write`, e.g. mobile sessions). */
  readonly write: boolean;
  /** Repeating it leaves the same state: a retry after an unknown outcome is harmless. */
  readonly idempotent: boolean;
  /** The read that tells whether a write of unknown outcome was applied (a create is found in its list). */
  readonly settledBy?: string;
  /** May remove or overwrite data, or trigger consequences no later call restores. */
  readonly destructive: boolean;
  readonly errors: readonly ApiErrorCode[];
  /** MCP toolset; absent for the endpoints that are not tools (mobile sessions). */
  readonly toolset?: Toolset;
}

const WS = '/v1/workspaces/{workspace}';
const LEAD = `${WS}/leads/{lead_id}`;
const ws = { workspace: 'workspace' } as const;
const wsLead = { workspace: 'workspace', lead_id: 'lead' } as const;

type Def = Omit<Endpoint, 'pathIds' | 'query' | 'body' | 'status' | 'write' | 'idempotent' | 'destructive' | 'errors'> &
  Partial<Pick<Endpoint, 'pathIds' | 'query' | 'body' | 'status' | 'write' | 'idempotent' | 'destructive' | 'errors'>>;

/** Defaults: GETs are reads, idempotent, not destructive; writes must say what they are. */
function ep(d: Def): Endpoint {
  const write = d.write ?? d.method !== 'GET';
  return {
    pathIds: {},
    query: {},
    body: null,
    status: 200,
    idempotent: true,
    destructive: false,
    errors: [],
    ...d,
    write,
  };
}

/** Insights: "a window over the cap gives 400 invalid_request (never silently truncated)"; defaults are ours (docs/spec-gaps.md). */
const insightsWindow = (maxDays: number, unit: WindowRule['unit']): WindowRule => ({
  maxDays,
  over: 'refuse',
  unit,
  defaultDays: 30,
  runs: 'back',
  blame: 'from',
});

const leadListQuery = {
  ...PAGING,
  expand: p.list(LEAD_LIST_EXPANSIONS, { max: MAX_EXPANSIONS, code: 'invalid_request' }),
  status: p.list(LEAD_STATUS_FILTER),
  campaign_id: p.id('campaign'),
  assignee_id: p.ids('member', { literal: 'none' }),
  lead_tag_id: p.ids('lead_tag', { max: 100 }),
  email: p.email(),
  q: p.text(1, 160),
  has_open_task: p.bool(),
  task_due_before: p.day(),
  meeting_outcome: p.list(MEETING_OUTCOME_FILTER),
  direction: p.oneOf(['sent', 'received']),
  updated_since: p.dateTime(),
  updated_before: p.dateTime(),
  unread: p.bool(),
  responded: p.bool(),
  priority: p.bool(),
};

export const ENDPOINTS: readonly Endpoint[] = [
  // Meta and workspaces
  ep({
    name: 'get_me',
    toolset: 'workspaces',
    method: 'GET',
    path: '/v1/me',
    scope: null,
    bucket: 'read',
    returns: 'object',
    resource: 'me',
    tellsLimits: true,
  }),
  ep({
    name: 'get_capabilities',
    toolset: 'workspaces',
    method: 'GET',
    path: '/v1/capabilities',
    scope: null,
    bucket: 'read',
    returns: 'object',
    resource: 'capabilities',
  }),
  ep({
    name: 'list_workspaces',
    toolset: 'workspaces',
    method: 'GET',
    path: '/v1/workspaces',
    scope: 'workspaces:read',
    bucket: 'read',
    returns: 'list',
    resource: 'workspace',
  }),
  ep({
    name: 'get_workspace',
    toolset: 'workspaces',
    method: 'GET',
    path: WS,
    pathIds: ws,
    scope: 'workspaces:read',
    bucket: 'read',
    upstreamWhen: { param: 'include', values: ['counts'] },
    query: { include: p.list(['counts', 'sdr_notes'], { code: 'invalid_request' }) },
    returns: 'object',
    resource: 'workspace',
    errors: ['invalid_request', 'not_found'],
  }),
  ep({
    name: 'list_members',
    toolset: 'workspaces',
    method: 'GET',
    path: `${WS}/members`,
    pathIds: ws,
    scope: 'members:read',
    bucket: 'read',
    query: { active: p.bool(), assignable: p.bool(), cursor: p.cursor(), limit: p.limit() },
    returns: 'list',
    resource: 'member',
    errors: ['invalid_cursor', 'invalid_request'],
  }),

  // Leads
  ep({
    name: 'list_leads',
    toolset: 'leads',
    method: 'GET',
    path: `${WS}/leads`,
    pathIds: ws,
    scope: 'leads:read',
    bucket: 'read',
    query: leadListQuery,
    maxExpansions: MAX_EXPANSIONS,
    returns: 'list',
    resource: 'lead',
    errors: ['invalid_cursor', 'invalid_request', 'not_found', 'unsupported_filter'],
  }),
  ep({
    name: 'get_lead',
    toolset: 'leads',
    method: 'GET',
    path: LEAD,
    pathIds: wsLead,
    scope: 'leads:read',
    bucket: 'read',
    upstreamWhen: { param: 'include', values: ['sdr_notes'] },
    query: {
      expand: p.list(LEAD_DETAIL_EXPANSIONS, { max: MAX_EXPANSIONS, code: 'invalid_request' }),
      include: p.list(['sdr_notes'], { code: 'invalid_request' }),
    },
    maxExpansions: MAX_EXPANSIONS,
    returns: 'object',
    resource: 'lead',
    errors: ['invalid_request', 'not_found', 'unsupported_filter'],
  }),
  ep({
    name: 'list_replies',
    toolset: 'leads',
    method: 'GET',
    path: `${LEAD}/replies`,
    pathIds: wsLead,
    scope: 'leads:read',
    bucket: 'read',
    query: PAGING,
    returns: 'list',
    resource: 'reply',
    errors: ['invalid_cursor', 'not_found', 'unsupported_filter'],
  }),
  ep({
    name: 'get_conversation',
    toolset: 'conversations',
    method: 'GET',
    path: `${LEAD}/messages`,
    pathIds: wsLead,
    scope: 'threads:read',
    bucket: 'read',
    alsoMeters: ['thread'],
    query: { limit: p.limit(), order: p.order(), refresh: p.bool() },
    returns: 'list',
    resource: 'message',
    errors: ['invalid_request', 'not_found'],
  }),
  ep({
    name: 'download_attachment',
    toolset: 'conversations',
    method: 'GET',
    path: `${LEAD}/attachments/{attachment_id}/download`,
    pathIds: { ...wsLead, attachment_id: 'attachment' },
    scope: 'threads:read',
    bucket: 'read',
    alsoMeters: ['thread'],
    returns: 'binary',
    resource: 'attachment',
    errors: ['invalid_request', 'not_found'],
  }),
  ep({
    name: 'get_assignees',
    toolset: 'leads',
    method: 'GET',
    path: `${LEAD}/assignees`,
    pathIds: wsLead,
    scope: 'leads:read',
    bucket: 'read',
    returns: 'list',
    resource: 'member',
    errors: ['invalid_request', 'not_found', 'unprocessable', 'unsupported_filter'],
  }),
  ep({
    name: 'set_assignees',
    toolset: 'leads',
    method: 'PUT',
    path: `${LEAD}/assignees`,
    pathIds: wsLead,
    scope: 'leads:write',
    bucket: 'write',
    body: bodies.setAssignees,
    destructive: true,
    returns: 'list',
    resource: 'member',
    errors: ['invalid_request', 'not_found', 'unprocessable', 'unsupported_filter'],
  }),
  ep({
    name: 'list_lead_tags',
    toolset: 'leads',
    method: 'GET',
    path: `${WS}/lead_tags`,
    pathIds: ws,
    scope: 'leads:read',
    bucket: 'read',
    query: { cursor: p.cursor(), limit: p.limit() },
    returns: 'list',
    resource: 'lead_tag',
    errors: ['invalid_cursor', 'unsupported_filter'],
  }),
  ep({
    name: 'get_lead_tags',
    toolset: 'leads',
    method: 'GET',
    path: `${LEAD}/tags`,
    pathIds: wsLead,
    scope: 'leads:read',
    bucket: 'read',
    returns: 'list',
    resource: 'lead_tag',
    errors: ['invalid_request', 'not_found', 'unprocessable', 'unsupported_filter'],
  }),
  ep({
    name: 'set_lead_tags',
    toolset: 'leads',
    method: 'PUT',
    path: `${LEAD}/tags`,
    pathIds: wsLead,
    scope: 'leads:write',
    bucket: 'write',
    body: bodies.setLeadTags,
    destructive: true,
    returns: 'list',
    resource: 'lead_tag',
    errors: ['invalid_request', 'not_found', 'unprocessable', 'unsupported_filter'],
  }),
  ep({
    name: 'set_priority',
    toolset: 'leads',
    method: 'PUT',
    path: `${WS}/leads/priority`,
    pathIds: ws,
    scope: 'leads:write',
    bucket: 'write',
    body: bodies.setPriority,
    returns: 'object',
    resource: 'lead_priority_update',
    errors: ['invalid_request', 'not_found', 'unsupported_filter'],
  }),
  ep({
    name: 'set_status',
    toolset: 'leads',
    method: 'POST',
    path: `${LEAD}/status`,
    pathIds: wsLead,
    scope: 'leads:write',
    bucket: 'write',
    // not_interested / unsubscribed complete every open task of the lead, for good.
    body: bodies.setStatus,
    elsewhere: {
      status: { booked: 'mark_booked', disqualified: 'mark_disqualified', responded: 'mark_responded', read: 'mark_read', unread: 'mark_unread' },
    },
    destructive: true,
    returns: 'object',
    resource: 'lead',
    errors: ['invalid_request', 'not_found', 'unsupported_filter'],
  }),
  ep({
    name: 'mark_read',
    toolset: 'leads',
    method: 'POST',
    path: `${LEAD}/read`,
    pathIds: wsLead,
    scope: 'leads:write',
    bucket: 'write',
    body: bodies.empty,
    returns: 'object',
    resource: 'lead',
    errors: ['invalid_request', 'not_found'],
  }),
  ep({
    name: 'mark_unread',
    toolset: 'leads',
    method: 'POST',
    path: `${LEAD}/unread`,
    pathIds: wsLead,
    scope: 'leads:write',
    bucket: 'write',
    body: bodies.empty,
    returns: 'object',
    resource: 'lead',
    errors: ['invalid_request', 'not_found'],
  }),
  ep({
    name: 'mark_responded',
    toolset: 'leads',
    method: 'POST',
    path: `${LEAD}/responded`,
    pathIds: wsLead,
    scope: 'leads:write',
    bucket: 'write',
    // Team-wide: the lead leaves every rep's worklist; no call sets it back.
    body: bodies.empty,
    destructive: true,
    returns: 'object',
    resource: 'lead',
    errors: ['invalid_request', 'not_found'],
  }),
  ep({
    name: 'mark_booked',
    toolset: 'leads',
    method: 'POST',
    path: `${LEAD}/booked`,
    pathIds: wsLead,
    scope: 'leads:write',
    bucket: 'write',
    body: bodies.markBooked,
    destructive: true,
    returns: 'object',
    resource: 'lead',
    errors: ['invalid_request', 'not_found'],
  }),
  ep({
    name: 'mark_disqualified',
    toolset: 'leads',
    method: 'POST',
    path: `${LEAD}/disqualified`,
    pathIds: wsLead,
    scope: 'leads:write',
    bucket: 'write',
    body: bodies.markDisqualified,
    destructive: true,
    returns: 'object',
    resource: 'lead',
    errors: ['invalid_request', 'not_found'],
  }),

  // Tasks
  ep({
    name: 'list_tasks',
    toolset: 'tasks',
    method: 'GET',
    path: `${WS}/tasks`,
    pathIds: ws,
    scope: 'tasks:read',
    bucket: 'read',
    query: {
      assignee_id: p.id('user'),
      cursor: p.cursor(),
      due_after: p.day(),
      due_before: p.day(),
      lead_id: p.id('lead'),
      limit: p.limit(),
      order: p.order(),
      status: p.oneOf(ENUMS.task_status),
      task_type: p.oneOf(ENUMS.task_type),
    },
    returns: 'list',
    resource: 'task',
    errors: ['invalid_cursor', 'invalid_request', 'not_found', 'unprocessable'],
  }),
  ep({
    name: 'create_task',
    toolset: 'tasks',
    method: 'POST',
    path: `${WS}/tasks`,
    pathIds: ws,
    scope: 'tasks:write',
    bucket: 'write',
    body: bodies.createTask,
    refusedFields: TASK_REFUSED_FIELDS,
    misnamed: { title: 'notes', description: 'notes', due_at: 'due_date' },
    status: 201,
    idempotent: false,
    settledBy: 'list_tasks',
    returns: 'object',
    resource: 'task',
    errors: ['invalid_cursor', 'invalid_request', 'not_found', 'unprocessable'],
  }),
  ep({
    name: 'update_task',
    toolset: 'tasks',
    method: 'PATCH',
    path: `${WS}/tasks/{task_id}`,
    pathIds: { workspace: 'workspace', task_id: 'task' },
    scope: 'tasks:write',
    bucket: 'write',
    body: bodies.updateTask,
    refusedFields: TASK_REFUSED_FIELDS,
    misnamed: { title: 'notes', description: 'notes', due_at: 'due_date' },
    destructive: true,
    returns: 'object',
    resource: 'task',
    errors: ['invalid_request', 'not_found', 'unprocessable'],
  }),
  ep({
    name: 'complete_task',
    toolset: 'tasks',
    method: 'POST',
    path: `${WS}/tasks/{task_id}/complete`,
    pathIds: { workspace: 'workspace', task_id: 'task' },
    scope: 'tasks:write',
    bucket: 'write',
    body: bodies.completeTask,
    returns: 'object',
    resource: 'task',
    errors: ['invalid_request', 'not_found'],
  }),
  ep({
    name: 'delete_task',
    toolset: 'tasks',
    method: 'DELETE',
    path: `${WS}/tasks/{task_id}`,
    pathIds: { workspace: 'workspace', task_id: 'task' },
    scope: 'tasks:write',
    bucket: 'write',
    destructive: true,
    returns: 'object',
    resource: 'task',
    errors: ['invalid_request', 'not_found'],
  }),

  // Notes
  ep({
    name: 'list_notes',
    toolset: 'notes',
    method: 'GET',
    path: `${WS}/notes`,
    pathIds: ws,
    scope: 'notes:read',
    bucket: 'read',
    query: { author_id: p.id('user'), created_since: p.dateTime(), cursor: p.cursor(), lead_id: p.id('lead'), limit: p.limit(), order: p.order() },
    returns: 'list',
    resource: 'note',
    errors: ['invalid_cursor', 'invalid_request', 'not_found', 'unprocessable'],
  }),
  ep({
    name: 'create_note',
    toolset: 'notes',
    method: 'POST',
    path: `${WS}/notes`,
    pathIds: ws,
    scope: 'notes:write',
    bucket: 'write',
    body: bodies.createNote,
    misnamed: { text: 'body', note: 'body', notes: 'body' },
    status: 201,
    idempotent: false,
    settledBy: 'list_notes',
    returns: 'object',
    resource: 'note',
    errors: ['invalid_cursor', 'invalid_request', 'not_found', 'unprocessable'],
  }),

  // Meetings
  ep({
    name: 'list_meetings',
    toolset: 'meetings',
    method: 'GET',
    path: `${WS}/meetings`,
    pathIds: ws,
    scope: 'meetings:read',
    bucket: 'upstream',
    query: {
      ...PAGING,
      outcome: p.list(MEETING_OUTCOME_FILTER),
      source: p.oneOf(ENUMS.meeting_source),
      host_id: p.id('user'),
      event_type_id: p.id('event_type'),
      booked_since: p.dateTime(),
      booked_before: p.dateTime(),
      starts_after: p.dateTime(),
      starts_before: p.dateTime(),
    },
    aliases: { starting_after: 'cursor' },
    returns: 'list',
    resource: 'meeting',
    errors: ['invalid_cursor', 'invalid_request', 'unsupported_filter'],
  }),
  ep({
    name: 'get_meeting',
    toolset: 'meetings',
    method: 'GET',
    path: `${WS}/meetings/{meeting_id}`,
    pathIds: { workspace: 'workspace', meeting_id: 'meeting' },
    scope: 'meetings:read',
    bucket: 'read',
    returns: 'object',
    resource: 'meeting',
    errors: ['invalid_request', 'not_found'],
  }),
  ep({
    name: 'set_meeting_outcome',
    toolset: 'meetings',
    method: 'POST',
    path: `${WS}/meetings/{meeting_id}/outcome`,
    pathIds: { workspace: 'workspace', meeting_id: 'meeting' },
    scope: 'meetings:write',
    bucket: 'write',
    // Locks the meeting; a different outcome afterwards needs force.
    body: bodies.setMeetingOutcome,
    destructive: true,
    returns: 'object',
    resource: 'meeting',
    errors: ['conflict', 'invalid_request', 'not_found'],
  }),

  // Event types and slots
  ep({
    name: 'list_event_types',
    toolset: 'scheduling',
    method: 'GET',
    path: `${WS}/event_types`,
    pathIds: ws,
    scope: 'event_types:read',
    bucket: 'read',
    query: { ...PAGING, active: p.bool(), public: p.bool() },
    aliases: { starting_after: 'cursor' },
    returns: 'list',
    resource: 'event_type',
    errors: ['invalid_cursor', 'invalid_request', 'unsupported_filter'],
  }),
  ep({
    name: 'get_event_type',
    toolset: 'scheduling',
    method: 'GET',
    path: `${WS}/event_types/{event_type_id}`,
    pathIds: { workspace: 'workspace', event_type_id: 'event_type' },
    scope: 'event_types:read',
    bucket: 'read',
    returns: 'object',
    resource: 'event_type',
    errors: ['invalid_request', 'not_found'],
  }),
  ep({
    name: 'get_slots',
    toolset: 'scheduling',
    method: 'GET',
    path: `${WS}/event_types/{event_type_id}/slots`,
    pathIds: { workspace: 'workspace', event_type_id: 'event_type' },
    scope: 'event_types:read',
    bucket: 'upstream',
    query: { from: p.dateTime(), to: p.dateTime(), timezone: p.timezone() },
    // "60 days maximum; also clamped to booking window and minimum notice": clamped, not refused. Two weeks by default (ours).
    window: { maxDays: LIMITS.slots_window_days, over: 'clamp', unit: 'instant', defaultDays: 14, runs: 'forward', blame: 'to' },
    returns: 'object',
    resource: 'availability',
    errors: ['invalid_request', 'not_found', 'unsupported_filter', 'upstream_error'],
  }),

  // Templates, folders, assets
  ep({
    name: 'list_templates',
    toolset: 'templates',
    method: 'GET',
    path: `${WS}/templates`,
    pathIds: ws,
    scope: 'templates:read',
    bucket: 'read',
    query: { ...PAGING, folder_id: p.id('template_folder'), visibility: p.oneOf(ENUMS.template_visibility) },
    returns: 'list',
    resource: 'template',
    errors: ['invalid_cursor', 'not_found'],
  }),
  ep({
    name: 'get_template',
    toolset: 'templates',
    method: 'GET',
    path: `${WS}/templates/{template_id}`,
    pathIds: { workspace: 'workspace', template_id: 'template' },
    scope: 'templates:read',
    bucket: 'read',
    returns: 'object',
    resource: 'template',
    errors: ['not_found'],
  }),
  ep({
    // A POST, but a computation: nothing is written and nothing is sent.
    name: 'render_template',
    toolset: 'templates',
    method: 'POST',
    path: `${WS}/templates/{template_id}/render`,
    pathIds: { workspace: 'workspace', template_id: 'template' },
    scope: 'templates:read',
    bucket: 'read',
    write: false,
    body: bodies.renderTemplate,
    returns: 'object',
    resource: 'rendered_template',
    errors: ['invalid_request', 'not_found', 'unprocessable'],
  }),
  ep({
    name: 'list_template_folders',
    toolset: 'templates',
    method: 'GET',
    path: `${WS}/template_folders`,
    pathIds: ws,
    scope: 'templates:read',
    bucket: 'read',
    query: PAGING,
    returns: 'list',
    resource: 'template_folder',
    errors: ['invalid_cursor'],
  }),
  ep({
    name: 'list_assets',
    toolset: 'templates',
    method: 'GET',
    path: `${WS}/assets`,
    pathIds: ws,
    scope: 'assets:read',
    bucket: 'read',
    query: { ...PAGING, kind: p.oneOf(ENUMS.asset_kind) },
    returns: 'list',
    resource: 'asset',
    errors: ['invalid_cursor'],
  }),

  // Sequences, campaigns, insights
  ep({
    name: 'list_sequences',
    toolset: 'campaigns',
    method: 'GET',
    path: `${WS}/sequences`,
    pathIds: ws,
    scope: 'sequences:read',
    bucket: 'read',
    query: { ...PAGING, active: p.bool(), expand: p.list(['templates'], { code: 'invalid_request' }), visibility: p.oneOf(ENUMS.sequence_visibility) },
    returns: 'list',
    resource: 'sequence',
    errors: ['invalid_cursor', 'invalid_request'],
  }),
  ep({
    name: 'list_campaigns',
    toolset: 'campaigns',
    method: 'GET',
    path: `${WS}/campaigns`,
    pathIds: ws,
    scope: 'campaigns:read',
    bucket: 'upstream',
    query: { cursor: p.cursor(), limit: p.limit() },
    returns: 'list',
    resource: 'campaign',
    errors: ['invalid_cursor', 'invalid_request', 'upstream_error'],
  }),
  ep({
    name: 'list_campaign_tags',
    toolset: 'campaigns',
    method: 'GET',
    path: `${WS}/campaign_tags`,
    pathIds: ws,
    scope: 'campaigns:read',
    bucket: 'upstream',
    query: { cursor: p.cursor(), limit: p.limit() },
    returns: 'list',
    resource: 'campaign_tag',
    errors: ['invalid_cursor', 'invalid_request', 'upstream_error'],
  }),
  ep({
    name: 'get_insights_summary',
    toolset: 'insights',
    method: 'GET',
    path: `${WS}/insights/summary`,
    pathIds: ws,
    scope: 'insights:read',
    bucket: 'read',
    query: { from: p.dayOrDateTime(), member_id: p.id('member'), to: p.dayOrDateTime() },
    window: insightsWindow(LIMITS.insights_window_days, 'instant'),
    returns: 'object',
    resource: 'insights_summary',
    errors: ['invalid_request'],
  }),
  ep({
    name: 'get_campaign_insights',
    toolset: 'insights',
    method: 'GET',
    path: `${WS}/insights/campaigns`,
    pathIds: ws,
    scope: 'insights:read',
    bucket: 'upstream',
    query: { campaign_id: p.id('campaign'), cursor: p.cursor(), from: p.dayOrDateTime(), limit: p.limit(), to: p.dayOrDateTime() },
    window: insightsWindow(LIMITS.insights_window_days, 'instant'),
    returns: 'list',
    resource: 'campaign_insight',
    errors: ['invalid_cursor', 'invalid_request', 'not_found', 'upstream_error'],
  }),
  ep({
    name: 'get_daily_insights',
    toolset: 'insights',
    method: 'GET',
    path: `${WS}/insights/daily`,
    pathIds: ws,
    scope: 'insights:read',
    bucket: 'upstream',
    query: { cursor: p.cursor(), from: p.day(), limit: p.limit(), to: p.day(), metric: p.oneOf(DAILY_METRICS) },
    window: insightsWindow(LIMITS.daily_window_days, 'day'),
    returns: 'list',
    resource: 'daily_point',
    errors: ['invalid_request', 'unsupported_filter', 'upstream_error'],
  }),

  // Mobile sessions: not inbox work, so not tools (shapes are our choice: docs/spec-gaps.md).
  ep({
    name: 'create_mobile_session',
    method: 'POST',
    path: '/v1/mobile/session',
    scope: null,
    bucket: 'write',
    body: bodies.createMobileSession,
    status: 201,
    idempotent: false,
    returns: 'object',
    resource: 'mobile_session',
    errors: ['invalid_request'],
  }),
  ep({
    name: 'revoke_mobile_session',
    method: 'DELETE',
    path: '/v1/mobile/session',
    scope: null,
    bucket: 'write',
    destructive: true,
    returns: 'object',
    resource: 'mobile_session',
    errors: ['not_found'],
  }),
];

export const ENDPOINT_BY_NAME: ReadonlyMap<string, Endpoint> = new Map(ENDPOINTS.map((e) => [e.name, e]));

export function endpoint(name: string): Endpoint {
  const e = ENDPOINT_BY_NAME.get(name);
  if (!e) throw new Error(`unknown endpoint ${name}`);
  return e;
}

/** The endpoints that are MCP tools (all but the mobile-session pair). */
export const TOOL_ENDPOINTS = ENDPOINTS.filter((e) => e.toolset !== undefined);

/** The buckets one call spends, given its query: the table's bucket plus any extra meter. */
export function bucketsFor(e: Endpoint, query: Readonly<Record<string, unknown>> = {}): Bucket[] {
  let main = e.bucket;
  if (e.upstreamWhen) {
    const v = query[e.upstreamWhen.param];
    const values = Array.isArray(v) ? v : typeof v === 'string' ? v.split(',') : [];
    if (values.some((x) => e.upstreamWhen!.values.includes(String(x)))) main = 'upstream';
  }
  return [main, ...(e.alsoMeters ?? [])];
}
