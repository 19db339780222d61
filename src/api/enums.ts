import { z } from 'zod';

/**
 * The enum lists of GET /v1/capabilities, written once. Readers use `open()` (unknown
 * values pass through, general rule 6); writers use `closed()` (strict).
 */
export const ENUMS = {
  lead_status: ['interested', 'not_interested', 'automated', 'unsubscribed', 'untagged'],
  lead_state: ['active', 'booked', 'disqualified'],
  lead_classification: ['INTERESTED', 'NOT_INTERESTED', 'BAD_TIMING', 'WRONG_PERSON', 'AUTOMATED', 'DNC'],
  meeting_outcome: ['showed', 'no_show', 'no_show_host', 'cancelled', 'rescheduled'],
  meeting_source: ['mark_booked', 'calendar'],
  meeting_confirmation_status: ['confirmed', 'pending', 'declined'],
  meeting_location_type: ['google_meet', 'phone', 'zoom'],
  meeting_channel: ['Cold Email', 'LinkedIn', 'Cold Call', 'Ads', 'Referral', 'Other'],
  message_direction: ['inbound', 'outbound'],
  message_kind: ['reply', 'campaign_send'],
  task_type: ['email', 'call', 'linkedin', 'custom'],
  task_status: ['open', 'completed'],
  asset_kind: ['video', 'doc', 'link', 'text'],
  asset_visibility: ['private', 'workspace'],
  template_visibility: ['private', 'workspace', 'global'],
  sequence_visibility: ['private', 'workspace', 'global'],
  sequence_step_type: ['email', 'call', 'linkedin', 'custom'],
  sequence_delay_unit: ['days', 'hours'],
  enrollment_status: ['active', 'paused', 'completed', 'cancelled'],
  event_type_scheduling_type: ['single', 'collective', 'round_robin'],
  event_type_form_field_type: ['text', 'textarea', 'select', 'multiselect', 'checkbox'],
  member_role: ['admin', 'user'],
  assignment_source: ['auto', 'manual'],
  assignment_method: ['off', 'one', 'all', 'round_robin'],
} as const;

export type EnumName = keyof typeof ENUMS;
export type EnumValue<N extends EnumName> = (typeof ENUMS)[N][number];

/** Read side: any string, the known values documented. */
export function open<N extends EnumName>(name: N) {
  return z.string().describe(`one of ${ENUMS[name].join(', ')} (other values may appear)`);
}

/** Write side: only the known values. */
export function closed<N extends EnumName>(name: N) {
  return z.enum(ENUMS[name] as unknown as [EnumValue<N>, ...EnumValue<N>[]]);
}

/** Input aliases of enum values (Enums: "'dnc' is an input alias for 'unsubscribed' and never returned"). */
export const VALUE_ALIASES: Readonly<Record<string, string>> = { dnc: 'unsubscribed' };
/** Status values a write accepts: the five statuses plus the input alias `dnc`. */
export const LEAD_STATUS_INPUT = [...ENUMS.lead_status, 'dnc'] as const;
/** The lead list filter also accepts the lifecycle values (States: lead status). */
export const LEAD_STATUS_FILTER = [...ENUMS.lead_status, 'booked', 'disqualified'] as const;
export const MEETING_OUTCOME_FILTER = [...ENUMS.meeting_outcome, 'none'] as const;

/** The figures of a daily insight point; `metric` names one of them. */
export const DAILY_METRICS = ['emails_sent', 'responses', 'positive_responses', 'booked'] as const;
export const LEAD_LIST_EXPANSIONS = ['assignees', 'campaign', 'open_tasks', 'tags'] as const;
export const LEAD_DETAIL_EXPANSIONS = ['assignees', 'open_tasks', 'tags', 'notes', 'meetings'] as const;
export const MAX_EXPANSIONS = 3;

export const SCOPES = [
  'workspaces:read',
  'members:read',
  'leads:read',
  'leads:write',
  'threads:read',
  'notes:read',
  'notes:write',
  'tasks:read',
  'tasks:write',
  'meetings:read',
  'meetings:write',
  'event_types:read',
  'templates:read',
  'assets:read',
  'sequences:read',
  'campaigns:read',
  'insights:read',
] as const;
export type Scope = (typeof SCOPES)[number];

export const BUCKETS = ['read', 'write', 'upstream', 'thread'] as const;
export type Bucket = (typeof BUCKETS)[number];

/** Limits section of the spec: per key, per minute. */
export const RATE_LIMITS = {
  read: 120,
  write: 60,
  upstream: 10,
  thread: 30,
  max_concurrent: 4,
} as const;

export const LIMITS = {
  page_default: 50,
  page_max: 200,
  q_max: 160,
  lead_tag_filter_max: 100,
  priority_ids_max: 100,
  insights_window_days: 366,
  daily_window_days: 120,
  slots_window_days: 60,
  messages_max: 200,
  sibling_threads_max: 12,
  campaign_roster_cache_seconds: 60,
} as const;
