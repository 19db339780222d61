/**
 * lead, reply, lead_tag, assignee and message resources. Owner-relative fields (unread,
 * priority, has_open_task, next_due_at) are computed for the key's owner; every view is
 * O(1) in the size of the workspace (it reads only the lead's own indexes).
 */
import { SDR_PLAYBOOKS } from '../seed/leads.js';
import type { Store } from '../store/store.js';
import type { LeadRec, LeadTagRec, MessageRec, ReplyRec, TaskRec } from '../store/types.js';
import { campaignView } from './content.js';
import { memberView } from './people.js';
import { meetingView, noteView, taskView } from './work.js';

const ms = (s: string | null | undefined) => (s ? Date.parse(s) : Number.NaN);

/** Open means not completed and not deleted (States: task status). */
export function openTasksOf(store: Store, lead: LeadRec): TaskRec[] {
  return store.tasksByLead.get(lead.id).filter((t) => t.status === 'open' && !t.deleted_at);
}

/** The owner's open tasks on this lead: what has_open_task, next_due_at and task_due_before mean. */
export function ownerOpenTasks(store: Store, lead: LeadRec, ownerId: string): TaskRec[] {
  return openTasksOf(store, lead).filter((t) => t.assignee_id === ownerId);
}

/** Earliest due day among tasks (tasks without a day do not count): the owner's next_due_at. */
export function earliestDue(tasks: readonly TaskRec[]): string | null {
  let next: string | null = null;
  for (const t of tasks) if (t.due_date && (next === null || t.due_date < next)) next = t.due_date;
  return next;
}

/** Unread for an owner: the newest inbound reply is strictly newer than their receipt. */
export function isUnread(lead: LeadRec, ownerId: string): boolean {
  if (!lead.last_inbound_at) return false;
  const receipt = lead.receipts.get(ownerId);
  return receipt === undefined || ms(lead.last_inbound_at) > ms(receipt);
}

/** Responded is team-wide; a strictly newer inbound reply sets it back. */
export function isResponded(lead: LeadRec): boolean {
  if (!lead.responded_at) return false;
  return !lead.last_inbound_at || ms(lead.responded_at) >= ms(lead.last_inbound_at);
}

export function leadTagView(t: LeadTagRec) {
  return { object: 'lead_tag' as const, id: t.id, workspace: t.workspace, name: t.name };
}

/** The lead's tags in the order they were applied. */
export function leadTagsOf(store: Store, lead: LeadRec) {
  return lead.tag_ids.flatMap((id) => {
    const t = store.leadTags.get(id);
    return t ? [leadTagView(t)] : [];
  });
}

/** member resources of the lead's assignees, with assignment_source and assigned_at. */
export function assigneesOf(store: Store, lead: LeadRec) {
  const members = store.membersOf(lead.workspace);
  return lead.assignments.flatMap((a) => {
    const m = members.find((x) => x.member_id === a.member_id);
    return m ? [memberView(store, m, { assignment_source: a.source, assigned_at: a.assigned_at })] : [];
  });
}

/** Playbook for this lead: its campaign's tags pick one; else the workspace's sdr_notes. */
export function sdrNotesOf(store: Store, lead: LeadRec): string | null {
  const campaign = lead.campaign_id ? store.campaigns.get(lead.campaign_id) : undefined;
  for (const tagId of campaign?.tag_ids ?? []) {
    const name = store.campaignTags.get(tagId)?.name;
    if (name && SDR_PLAYBOOKS[name]) return SDR_PLAYBOOKS[name];
  }
  return store.workspaces.get(lead.workspace)?.sdr_notes ?? null;
}

const byTime =
  <T>(key: (t: T) => string | null) =>
  (a: T, b: T) =>
    (key(a) ?? '').localeCompare(key(b) ?? '');

export interface LeadViewOpts {
  expand?: readonly string[];
  include?: readonly string[];
}

export function leadView(store: Store, lead: LeadRec, ownerId: string, opts: LeadViewOpts = {}) {
  const mine = ownerOpenTasks(store, lead, ownerId);
  const out: Record<string, unknown> = {
    object: 'lead',
    id: lead.id,
    workspace: lead.workspace,
    email: lead.email,
    first_name: lead.first_name,
    last_name: lead.last_name,
    company_name: lead.company_name,
    title: lead.title,
    status: lead.status,
    classification: lead.classification,
    state: lead.state,
    subject: lead.subject,
    body_preview: lead.body_preview,
    latest_reply_id: lead.latest_reply_id,
    last_message_at: lead.last_message_at,
    last_message_direction: lead.last_message_direction,
    last_action_at: lead.last_action_at,
    booked_at: lead.booked_at,
    disqualified_at: lead.disqualified_at,
    meeting_outcome: lead.meeting_outcome,
    meeting_outcome_at: lead.meeting_outcome_at,
    responded: isResponded(lead),
    unread: isUnread(lead, ownerId),
    priority: lead.priority_by.has(ownerId),
    campaign_id: lead.campaign_id,
    campaign_name: lead.campaign_name,
    assignee_ids: lead.assignments.map((a) => a.member_id),
    has_open_task: mine.length > 0,
    next_due_at: earliestDue(mine),
    indexed_at: lead.indexed_at,
  };
  for (const e of opts.expand ?? []) {
    if (e === 'assignees') out.assignees = assigneesOf(store, lead);
    else if (e === 'campaign') {
      const c = lead.campaign_id ? store.campaigns.get(lead.campaign_id) : undefined;
      out.campaign = c ? campaignView(store, c) : null;
    } else if (e === 'open_tasks') out.open_tasks = openTasksOf(store, lead).map(taskView);
    else if (e === 'tags') out.tags = leadTagsOf(store, lead);
    else if (e === 'notes') out.notes = [...store.notesByLead.get(lead.id)].sort(byTime((n) => n.created_at)).map(noteView);
    else if (e === 'meetings') out.meetings = [...store.meetingsByLead.get(lead.id)].sort(byTime((m) => m.booked_at)).map((m) => meetingView(m));
  }
  if (opts.include?.includes('sdr_notes')) out.sdr_notes = sdrNotesOf(store, lead);
  return out;
}

export function replyView(r: ReplyRec) {
  return {
    object: 'reply' as const,
    id: r.id,
    lead_id: r.lead_id,
    workspace: r.workspace,
    email: r.email,
    subject: r.subject,
    body_preview: r.body_preview,
    status: r.status,
    classification: r.classification,
    direction: r.direction,
    received_at: r.received_at,
    campaign_id: r.campaign_id,
    campaign_name: r.campaign_name,
  };
}

/** message resource; the sibling thread index and attachment bytes stay inside the sandbox. */
export function messageView(m: MessageRec) {
  return {
    object: 'message' as const,
    id: m.id,
    lead_id: m.lead_id,
    kind: m.kind,
    direction: m.direction,
    reply_id: m.reply_id,
    subject: m.subject,
    from_name: m.from_name,
    from_email: m.from_email,
    to_email: m.to_email,
    body_html: m.body_html,
    body_text: m.body_text,
    sent_at: m.sent_at,
    attachments: m.attachments.map((a) => ({ object: 'attachment' as const, id: a.id, filename: a.filename })),
  };
}
