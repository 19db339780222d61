import { z } from 'zod';
import { open } from './enums.js';

/**
 * Resource schemas of the spec, read side: unknown fields and unknown enum values pass
 * (general rule 6, versioning rule 4). Types flow from these with z.infer.
 */
const str = z.string();
const nstr = z.string().nullable();
const ts = z.string().nullable();
const int = z.number().int();
const obj = <const K extends string, T extends z.ZodRawShape>(kind: K, shape: T) => z.looseObject({ object: z.literal(kind), ...shape });

export const listEnvelope = <T extends z.ZodType>(item: T) =>
  z.looseObject({ object: z.literal('list'), data: z.array(item), has_more: z.boolean(), next_cursor: nstr });

export const effectsSchema = z.looseObject({ provider_writes: z.array(z.unknown()) });

export const workspaceResource = obj('workspace', {
  id: str,
  name: str,
  domain: nstr,
  logo_url: nstr,
  active: z.boolean(),
  features: z.record(z.string(), z.boolean()),
  granted_scopes: z.array(str),
  synced_at: ts,
  counts: z.looseObject({ leads: int, open_tasks: int, meetings_upcoming: int }).optional(),
  sdr_notes: nstr.optional(),
});

export const memberResource = obj('member', {
  id: str,
  name: nstr,
  email: str,
  avatar_url: nstr,
  role: z.string(),
  timezone: nstr,
  active: z.boolean(),
  assignable: z.boolean(),
  created_at: ts,
  assignment_source: open('assignment_source').optional(),
  assigned_at: ts.optional(),
});

export const taskResource = obj('task', {
  id: str,
  workspace: str,
  lead_id: str,
  reply_id: nstr,
  title: nstr,
  notes: nstr,
  task_type: nstr,
  due_date: nstr,
  due_time: nstr,
  status: open('task_status'),
  creator_id: nstr,
  assignee_id: nstr,
  completed_at: ts,
  created_at: ts,
  sequence: z.looseObject({ id: str, name: nstr, step_index: z.number().nullable() }).nullable(),
});

export const noteResource = obj('note', {
  id: str,
  workspace: str,
  lead_id: str,
  reply_id: nstr,
  body: nstr,
  author_id: nstr,
  created_at: ts,
  updated_at: ts,
});

const person = z.looseObject({ name: nstr, email: nstr, phone: nstr });
export const meetingResource = obj('meeting', {
  id: str,
  workspace: str,
  lead_id: nstr,
  event_type_id: nstr,
  source: open('meeting_source'),
  booked_at: ts,
  booked_by_id: nstr,
  host_id: nstr,
  starts_at: ts,
  ends_at: ts,
  timezone: nstr,
  invitee: person,
  guests: z.array(z.looseObject({ name: nstr, email: nstr })),
  custom_fields: z.record(z.string(), z.unknown()),
  utm_params: z.record(z.string(), z.unknown()),
  channel: nstr,
  confirmation_status: open('meeting_confirmation_status'),
  location: z.looseObject({ type: nstr, phone: nstr }),
  outcome: nstr,
  outcome_at: ts,
  outcome_by_id: nstr,
  locked: z.boolean(),
  created_at: ts,
  internal_notes: nstr.optional(),
});

export const leadTagResource = obj('lead_tag', { id: str, name: str });

export const campaignResource = obj('campaign', {
  id: str,
  workspace: str,
  name: str,
  status: str,
  tags: z.array(z.looseObject({ id: str, name: str })),
});

export const leadResource = obj('lead', {
  id: str,
  workspace: str,
  email: str,
  first_name: nstr,
  last_name: nstr,
  company_name: nstr,
  title: nstr,
  status: open('lead_status'),
  classification: nstr,
  state: open('lead_state'),
  subject: nstr,
  body_preview: nstr,
  latest_reply_id: str,
  last_message_at: ts,
  last_message_direction: str,
  last_action_at: ts,
  booked_at: ts,
  disqualified_at: ts,
  meeting_outcome: nstr,
  meeting_outcome_at: ts,
  responded: z.boolean(),
  unread: z.boolean(),
  priority: z.boolean(),
  campaign_id: nstr,
  campaign_name: nstr,
  assignee_ids: z.array(str),
  has_open_task: z.boolean(),
  next_due_at: nstr,
  indexed_at: ts,
  assignees: z.array(memberResource).optional(),
  campaign: campaignResource.nullable().optional(),
  open_tasks: z.array(taskResource).optional(),
  tags: z.array(leadTagResource).optional(),
  notes: z.array(noteResource).optional(),
  meetings: z.array(meetingResource).optional(),
  sdr_notes: nstr.optional(),
});

export const replyResource = obj('reply', {
  id: str,
  lead_id: str,
  workspace: str,
  email: str,
  subject: nstr,
  body_preview: nstr,
  status: nstr,
  classification: nstr,
  direction: str,
  received_at: ts,
  campaign_id: nstr,
  campaign_name: nstr,
});

export const attachmentResource = obj('attachment', { id: str, filename: str });

export const messageResource = obj('message', {
  id: str,
  lead_id: str,
  kind: open('message_kind'),
  direction: open('message_direction'),
  reply_id: nstr,
  subject: nstr,
  from_name: nstr,
  from_email: nstr,
  to_email: nstr,
  body_html: nstr,
  body_text: nstr,
  sent_at: ts,
  attachments: z.array(attachmentResource),
});
/** What a conversation's page adds beside its messages (Messages rules). */
export const messageListMeta = z.looseObject({ truncated: z.boolean(), sibling_cap_reached: z.boolean(), cache_age_seconds: int });
export const messageListResource = listEnvelope(messageResource).extend({ meta: messageListMeta });

export const eventTypeHostResource = obj('event_type_host', {
  id: str,
  event_type_id: str,
  member_id: str,
  weight: z.number(),
  priority: z.number(),
  is_host: z.boolean(),
  active: z.boolean(),
});
export const eventTypeFormFieldResource = obj('event_type_form_field', {
  id: str,
  event_type_id: str,
  field_key: str,
  label: str,
  type: open('event_type_form_field_type'),
  options: z.array(str),
  required: z.boolean(),
  order_index: int,
  active: z.boolean(),
});
const fieldConfig = z.looseObject({ included: z.boolean(), required: z.boolean() });
export const eventTypeResource = obj('event_type', {
  id: str,
  workspace: str,
  name: str,
  slug: str,
  description: nstr,
  event_name_template: nstr,
  duration_minutes: int,
  buffer_before_minutes: int,
  buffer_after_minutes: int,
  scheduling_type: open('event_type_scheduling_type'),
  public: z.boolean(),
  public_url: nstr,
  public_booking_window_days: int,
  minimum_notice_minutes: int,
  business_emails_only: z.boolean(),
  redirect_url: nstr,
  workspace_wide: z.boolean(),
  active: z.boolean(),
  requires_confirmation: z.boolean(),
  location: z.looseObject({ type: nstr, phone: nstr, description: nstr }),
  order_index: int,
  use_event_type_availability: z.boolean(),
  default_field_config: z.looseObject({
    first_name: fieldConfig,
    last_name: fieldConfig,
    company: fieldConfig,
    email: fieldConfig,
    phone: fieldConfig,
  }),
  booking_provider: str,
  created_by_id: nstr,
  created_at: ts,
  updated_at: ts,
  hosts: z.array(eventTypeHostResource).optional(),
  form_fields: z.array(eventTypeFormFieldResource).optional(),
});

export const slotResource = obj('slot', { start: ts, end: ts });
export const availabilityResource = obj('availability', {
  event_type_id: str,
  duration_minutes: int,
  timezone: str,
  window: z.looseObject({ from: ts, to: ts }),
  slots: z.array(slotResource),
  reason: nstr,
});

export const templateResource = obj('template', {
  id: str,
  workspace: nstr,
  scope: z.string(),
  name: str,
  subject: nstr,
  body: str,
  is_html: z.boolean(),
  visibility: open('template_visibility'),
  folder_id: nstr,
  order_index: int,
  variables: z.array(str),
  ai_variables: z.array(z.looseObject({ name: str, read_website: z.boolean() })),
  created_by_id: nstr,
  created_at: ts,
});
export const renderedTemplateResource = obj('rendered_template', {
  template_id: str,
  lead_id: str,
  subject: nstr,
  body: str,
  is_html: z.boolean(),
  resolved: z.array(str),
  unresolved: z.array(str),
  ready_to_send: z.boolean(),
});
export const templateFolderResource = obj('template_folder', { id: str, name: str });

export const assetResource = obj('asset', {
  id: str,
  workspace: str,
  kind: open('asset_kind'),
  title: str,
  url: nstr,
  body: nstr,
  visibility: open('asset_visibility'),
  order_index: int,
  created_by_id: nstr,
  created_at: ts,
});

export const sequenceStepResource = obj('sequence_step', {
  id: str,
  order_index: int,
  type: open('sequence_step_type'),
  title: nstr,
  delay_value: z.number(),
  delay_unit: open('sequence_delay_unit'),
  wait_for_previous: z.boolean(),
  template_id: nstr,
  email_body: nstr,
  linkedin_text: nstr,
});
export const sequenceResource = obj('sequence', {
  id: str,
  workspace: str,
  name: str,
  active: z.boolean(),
  visibility: open('sequence_visibility'),
  send_days: z.array(str),
  send_days_mask: int,
  created_by_id: nstr,
  created_at: ts,
  steps: z.array(sequenceStepResource),
});

export const campaignTagResource = obj('campaign_tag', { id: str, workspace: str, name: str, campaign_count: int });
export const campaignInsightResource = obj('campaign_insight', {
  campaign_id: str,
  campaign_name: nstr,
  status: nstr,
  emails_sent: int,
  contacts: int,
  replies: int,
  interested: int,
  bounced: int,
  booked: int,
  showed: int,
  tags: z.array(z.unknown()),
  steps: z.array(
    z.looseObject({
      object: z.literal('campaign_step'),
      step_id: int,
      label: nstr,
      subject: nstr,
      sent: int,
      contacts: int,
      replies: int,
      interested: int,
    }),
  ),
});
export const dailyPointResource = obj('daily_point', {
  date: str,
  emails_sent: int,
  responses: int,
  positive_responses: int,
  booked: int,
});
const rate = z.number().nullable();
export const insightsSummaryResource = obj('insights_summary', {
  workspace: str,
  window: z.looseObject({ from: str, to: str }),
  funnel: z.looseObject({ all_responses: int, positive_responses: int, booked_meetings: int, showed_meetings: int }),
  headline: z.looseObject({
    total_meetings_booked: int,
    meetings_with_outcome: int,
    show_rate: rate,
    total_interested_leads: int,
    booked_interested_leads: int,
    booking_rate: rate,
  }),
  speed_to_lead: z.looseObject({
    first_response_avg_sec: z.number().nullable(),
    first_response_count: int,
    followup_avg_sec: z.number().nullable(),
    followup_count: int,
  }),
  per_rep: z.array(z.looseObject({ member_id: str, name: nstr })),
  speed_buckets: z.array(z.looseObject({ label: str, n: int })),
  generated_at: str,
});

export const leadPriorityUpdateResource = obj('lead_priority_update', {
  workspace: str,
  priority: z.boolean(),
  lead_ids: z.array(str),
  matched_count: int,
  updated_count: int,
  effects: effectsSchema,
});

export const meResource = z.looseObject({
  object: z.literal('me').optional(),
  key: z.looseObject({ id: str, name: nstr, all_workspaces: z.boolean() }),
  owner: z.looseObject({ id: str, email: str, role: z.string() }),
  scopes: z.array(str),
  scopes_withheld: z.array(str),
  workspaces: z.array(z.looseObject({ object: z.literal('workspace'), id: str, name: str, member_id: str })),
  rate_limits: z
    .looseObject({
      read_per_minute: int,
      write_per_minute: int,
      thread_per_minute: int,
      upstream_per_minute: int,
      max_concurrent: int,
    })
    .optional(),
});
export type Me = z.infer<typeof meResource>;

export const capabilitiesResource = z.looseObject({
  object: z.literal('capabilities'),
  api_version: str,
  enums: z.record(z.string(), z.array(str)),
});

/** The schema of each `object` kind, by name (what an endpoint's `resource` names): a kind not here does not compile. */
export const RESOURCES = {
  workspace: workspaceResource,
  member: memberResource,
  lead: leadResource,
  reply: replyResource,
  message: messageResource,
  attachment: attachmentResource,
  note: noteResource,
  task: taskResource,
  meeting: meetingResource,
  event_type: eventTypeResource,
  availability: availabilityResource,
  template: templateResource,
  rendered_template: renderedTemplateResource,
  template_folder: templateFolderResource,
  asset: assetResource,
  sequence: sequenceResource,
  campaign: campaignResource,
  campaign_tag: campaignTagResource,
  campaign_insight: campaignInsightResource,
  daily_point: dailyPointResource,
  insights_summary: insightsSummaryResource,
  lead_priority_update: leadPriorityUpdateResource,
  lead_tag: leadTagResource,
  me: meResource,
  capabilities: capabilitiesResource,
  mobile_session: z.looseObject({ object: z.literal('mobile_session') }),
} as const satisfies Readonly<Record<string, z.ZodType>>;

/** An `object` kind of the API: what an endpoint's `resource` names. */
export type ResourceName = keyof typeof RESOURCES;
/** A record of that kind, as the read side's schema leaves it (unknown fields pass). */
export type ResourceOf<K extends ResourceName> = z.output<(typeof RESOURCES)[K]>;

export type Lead = z.infer<typeof leadResource>;
export type Task = z.infer<typeof taskResource>;
export type Note = z.infer<typeof noteResource>;
export type Meeting = z.infer<typeof meetingResource>;
export type Message = z.infer<typeof messageResource>;
export type MessageListMeta = z.infer<typeof messageListMeta>;
