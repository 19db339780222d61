/**
 * The sandbox's records. Most fields are the API resource's fields as the spec names
 * them, so a view is mostly a copy; owner-relative fields (unread, priority,
 * has_open_task, next_due_at) are computed per key owner in the views.
 */
import type { Scope } from '../../api/enums.js';

export interface UserRec {
  id: string; // usr_ one part
  name: string | null;
  email: string;
  avatar_url: string | null;
  role: 'admin' | 'user';
  timezone: string | null;
  active: boolean;
  created_at: string | null;
  /** Workspaces this person belongs to ('all' for an organisation-wide admin). */
  reach: 'all' | string[];
}

export interface WorkspaceRec {
  id: string; // slug
  name: string;
  domain: string | null;
  logo_url: string | null;
  active: boolean;
  features: Record<string, boolean>;
  synced_at: string | null;
  sdr_notes: string | null;
  assignment_method: 'off' | 'one' | 'all' | 'round_robin';
  /** Whether admins are assignable under this workspace's assignment configuration. */
  admins_assignable: boolean;
  /** Never leaves the sandbox (authentication rule 10). */
  upstream_token: string;
}

/** An assignment row: a person assigned to a workspace. Admins have none. */
export interface MembershipRec {
  workspace: string;
  user_id: string;
  member_id: string; // two-part usr_ id
  assignable: boolean;
  created_at: string | null;
}

export interface ApiKeyRec {
  id: string; // key_
  name: string;
  handle: string; // 8 chars, public
  environment: 'live' | 'test';
  secret_hash: string; // sha256 hex of the whole key
  owner_id: string;
  all_workspaces: boolean;
  workspaces: string[];
  scopes: Scope[];
  revoked: boolean;
  expires_at: string | null;
  created_at: string;
  last_used_at: string | null;
  description: string | null;
}

export interface LeadAssignment {
  member_id: string;
  source: 'auto' | 'manual';
  assigned_at: string | null;
}

export interface LeadRec {
  id: string;
  workspace: string;
  email: string;
  first_name: string | null;
  last_name: string | null;
  company_name: string | null;
  title: string | null;
  status: string;
  classification: string | null;
  state: 'active' | 'booked' | 'disqualified';
  subject: string | null;
  body_preview: string | null;
  latest_reply_id: string;
  last_message_at: string | null;
  last_message_direction: string; // 'sent' | 'received'
  last_action_at: string | null;
  booked_at: string | null;
  disqualified_at: string | null;
  meeting_outcome: string | null;
  meeting_outcome_at: string | null;
  campaign_id: string | null;
  campaign_name: string | null;
  indexed_at: string | null;
  assignments: LeadAssignment[];
  tag_ids: string[];
  /** Time of the newest inbound reply: drives unread and responded resets. */
  last_inbound_at: string | null;
  /** Team-wide responded stamp; responded = stamp >= last_inbound_at. */
  responded_at: string | null;
  /** Per key owner (usr_ one part): read receipt time. */
  receipts: Map<string, string>;
  /** Workspace-wide receipt, stamped by any read. */
  workspace_read_at: string | null;
  /** Key owners who starred this lead. */
  priority_by: Set<string>;
  reengage_approved: boolean | null;
  /** Index into the seed, for lazily generated conversations. */
  seed_index: number;
}

export interface ReplyRec {
  id: string;
  lead_id: string;
  workspace: string;
  email: string;
  subject: string | null;
  body_preview: string | null;
  status: string | null;
  classification: string | null;
  direction: string;
  received_at: string | null;
  campaign_id: string | null;
  campaign_name: string | null;
}

export interface AttachmentRec {
  id: string;
  filename: string;
  content: string; // bytes, for download
}

export interface MessageRec {
  id: string;
  lead_id: string;
  kind: 'reply' | 'campaign_send';
  direction: 'inbound' | 'outbound';
  reply_id: string | null;
  subject: string | null;
  from_name: string | null;
  from_email: string | null;
  to_email: string | null;
  body_html: string | null;
  body_text: string | null;
  sent_at: string | null;
  attachments: AttachmentRec[];
  /** Which sibling thread it belongs to (at most 12 are assembled). */
  thread_index: number;
}

export interface TaskRec {
  id: string;
  workspace: string;
  lead_id: string;
  reply_id: string | null;
  title: string | null;
  notes: string | null;
  task_type: string | null;
  due_date: string | null;
  due_time: string | null;
  status: 'open' | 'completed';
  creator_id: string | null;
  assignee_id: string | null;
  completed_at: string | null;
  created_at: string | null;
  sequence: { id: string; name: string | null; step_index: number | null } | null;
  deleted_at: string | null;
}

export interface NoteRec {
  id: string;
  workspace: string;
  lead_id: string;
  reply_id: string | null;
  body: string | null;
  author_id: string | null;
  created_at: string | null;
  updated_at: string | null;
}

export interface MeetingRec {
  id: string;
  workspace: string;
  lead_id: string | null;
  event_type_id: string | null;
  source: string;
  booked_at: string | null;
  booked_by_id: string | null;
  host_id: string | null;
  starts_at: string | null;
  ends_at: string | null;
  timezone: string | null;
  invitee: { name: string | null; email: string | null; phone: string | null };
  email: string | null;
  name: string | null;
  company_name: string | null;
  domain: string | null;
  guests: { name: string | null; email: string | null }[];
  custom_fields: Record<string, unknown>;
  utm_params: Record<string, unknown>;
  channel: string | null;
  confirmation_status: string;
  location: { type: string | null; phone: string | null };
  outcome: string | null;
  outcome_at: string | null;
  outcome_by_id: string | null;
  locked: boolean;
  created_at: string | null;
  internal_notes: string | null;
}

export interface EventTypeHostRec {
  id: string;
  event_type_id: string;
  member_id: string;
  weight: number;
  priority: number;
  is_host: boolean;
  active: boolean;
  /** Whether this host has a calendar connected (drives the slots `reason`). */
  calendar_connected: boolean;
}

export interface EventTypeFormFieldRec {
  id: string;
  event_type_id: string;
  field_key: string;
  label: string;
  type: string;
  options: string[];
  required: boolean;
  order_index: number;
  active: boolean;
}

export interface EventTypeRec {
  id: string;
  workspace: string;
  name: string;
  slug: string;
  description: string | null;
  event_name_template: string | null;
  duration_minutes: number;
  buffer_before_minutes: number;
  buffer_after_minutes: number;
  scheduling_type: string;
  public: boolean;
  public_url: string | null;
  public_booking_window_days: number;
  minimum_notice_minutes: number;
  business_emails_only: boolean;
  redirect_url: string | null;
  workspace_wide: boolean;
  active: boolean;
  requires_confirmation: boolean;
  location: { type: string | null; phone: string | null; description: string | null };
  order_index: number;
  use_event_type_availability: boolean;
  default_field_config: Record<'first_name' | 'last_name' | 'company' | 'email' | 'phone', { included: boolean; required: boolean }>;
  booking_provider: string;
  created_by_id: string | null;
  created_at: string | null;
  updated_at: string | null;
  hosts: EventTypeHostRec[];
  form_fields: EventTypeFormFieldRec[];
  /** Working hours in the event type's timezone, for computing free slots. */
  availability: { timezone: string; days: number[]; start: string; end: string };
  /** Busy intervals (ISO start/end) on the hosts' calendars. */
  busy: { start: string; end: string }[];
}

export interface TemplateRec {
  id: string;
  workspace: string | null;
  /** The workspace that owns it; a global template is listed in every workspace. */
  owner_workspace: string;
  scope: 'workspace' | 'global';
  name: string;
  subject: string | null;
  body: string;
  is_html: boolean;
  visibility: 'private' | 'workspace' | 'global';
  folder_id: string | null;
  order_index: number;
  ai_variables: { name: string; read_website: boolean; instructions: string }[];
  created_by_id: string | null;
  created_at: string | null;
}

export interface TemplateFolderRec {
  id: string;
  workspace: string;
  name: string;
  order_index: number;
  created_at: string | null;
}

export interface AssetRec {
  id: string;
  workspace: string;
  kind: 'video' | 'doc' | 'link' | 'text';
  title: string;
  url: string | null;
  body: string | null;
  visibility: 'private' | 'workspace';
  order_index: number;
  created_by_id: string | null;
  created_at: string | null;
}

export interface SequenceStepRec {
  id: string;
  order_index: number;
  type: string;
  title: string | null;
  delay_value: number;
  delay_unit: string;
  wait_for_previous: boolean;
  template_id: string | null;
  email_body: string | null;
  linkedin_text: string | null;
}

export interface SequenceRec {
  id: string;
  workspace: string;
  name: string;
  active: boolean;
  visibility: 'private' | 'workspace' | 'global';
  send_days_mask: number;
  created_by_id: string | null;
  created_at: string | null;
  steps: SequenceStepRec[];
  deleted: boolean;
}

export interface CampaignRec {
  id: string;
  workspace: string;
  name: string;
  status: string;
  tag_ids: string[];
  /** Synthetic sending figures for insights (sent per step, contacts, bounces). */
  steps: { step_id: number; label: string; subject: string | null }[];
  contacts: number;
  started_on: string; // YYYY-MM-DD
}

export interface CampaignTagRec {
  id: string;
  workspace: string;
  name: string;
}

export interface LeadTagRec {
  id: string; // two-part ltg_
  workspace: string;
  name: string;
  order_index: number;
}

export interface MobileSessionRec {
  id: string;
  token_hash: string;
  user_id: string;
  key_id: string;
  device_name: string | null;
  workspaces: string[];
  created_at: string;
  expires_at: string;
  revoked_at: string | null;
}
