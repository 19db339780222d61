import type { SortKey } from '../paging.js';
import { Collection, MultiIndex } from './collection.js';
import type {
  ApiKeyRec,
  AssetRec,
  CampaignRec,
  CampaignTagRec,
  EventTypeRec,
  LeadRec,
  LeadTagRec,
  MeetingRec,
  MembershipRec,
  MessageRec,
  MobileSessionRec,
  NoteRec,
  ReplyRec,
  SequenceRec,
  TaskRec,
  TemplateFolderRec,
  TemplateRec,
  UserRec,
  WorkspaceRec,
} from './types.js';

/** The workspace-scoped two-part member id of a user (authentication rule 8). */
export function memberIdOf(userId: string, workspace: string): string {
  return `${userId}_${workspace.replace(/[^a-z0-9]/g, '')}`;
}

const byWorkspace = (r: { workspace: string }) => r.workspace;

/** Sort keys of the spec (Pagination: fixed sort keys). */
export const SORT = {
  lead: (l: LeadRec): SortKey => [l.last_message_at, l.latest_reply_id],
  reply: (r: ReplyRec): SortKey => [r.received_at, r.id],
  task: (t: TaskRec): SortKey => [t.due_date, t.id],
  note: (n: NoteRec): SortKey => [n.created_at, n.id],
  meeting: (m: MeetingRec): SortKey => [m.booked_at, m.id],
  ordered: (r: { order_index: number; id: string }): SortKey => [r.order_index, r.id],
  created: (r: { created_at: string | null; id: string }): SortKey => [r.created_at, r.id],
} as const;

/** Everything the sandbox knows. One instance per running sandbox. */
export class Store {
  /** The moment the seeded data is placed around (--now). Writes stamp real time. */
  constructor(
    readonly anchor: Date,
    readonly seed: number,
  ) {}

  readonly users = new Map<string, UserRec>();
  readonly workspaces = new Map<string, WorkspaceRec>();
  readonly memberships: MembershipRec[] = [];
  /** Keys by the sha256 of the whole key string; the sandbox never keeps a secret. */
  readonly keysByHash = new Map<string, ApiKeyRec>();
  readonly mobileSessions = new Map<string, MobileSessionRec>();

  readonly leads = new Collection<LeadRec>(byWorkspace);
  /** workspace + '\u0000' + lowercased email → lead. */
  readonly leadByEmail = new Map<string, LeadRec>();
  readonly replies = new Collection<ReplyRec>(byWorkspace);
  readonly repliesByLead = new MultiIndex<ReplyRec>();
  readonly tasks = new Collection<TaskRec>(byWorkspace);
  readonly tasksByLead = new MultiIndex<TaskRec>();
  readonly notes = new Collection<NoteRec>(byWorkspace);
  readonly notesByLead = new MultiIndex<NoteRec>();
  readonly meetings = new Collection<MeetingRec>(byWorkspace);
  readonly meetingsByLead = new MultiIndex<MeetingRec>();
  readonly eventTypes = new Collection<EventTypeRec>(byWorkspace);
  /** Templates are grouped by owning workspace; global ones are also listed elsewhere. */
  readonly templates = new Collection<TemplateRec>((t) => t.owner_workspace);
  readonly templateFolders = new Collection<TemplateFolderRec>(byWorkspace);
  readonly assets = new Collection<AssetRec>(byWorkspace);
  readonly sequences = new Collection<SequenceRec>(byWorkspace);
  readonly campaigns = new Collection<CampaignRec>(byWorkspace);
  readonly campaignTags = new Collection<CampaignTagRec>(byWorkspace);
  readonly leadTags = new Collection<LeadTagRec>(byWorkspace);

  /** Conversations are made on first read, deterministically from the seed. */
  readonly conversations = new Map<string, MessageRec[]>();
  conversationOf: (lead: LeadRec) => MessageRec[] = () => [];

  /** Workspace campaign roster snapshots (the spec's 60-second cache). */
  readonly rosterCache = new Map<string, { at: number; items: CampaignRec[] }>();

  addLead(lead: LeadRec): LeadRec {
    this.leads.add(lead);
    this.leadByEmail.set(`${lead.workspace}\u0000${lead.email.toLowerCase()}`, lead);
    return lead;
  }
  addReply(r: ReplyRec): ReplyRec {
    this.replies.add(r);
    this.repliesByLead.add(r.lead_id, r);
    return r;
  }
  addTask(t: TaskRec): TaskRec {
    this.tasks.add(t);
    this.tasksByLead.add(t.lead_id, t);
    return t;
  }
  addNote(n: NoteRec): NoteRec {
    this.notes.add(n);
    this.notesByLead.add(n.lead_id, n);
    return n;
  }
  addMeeting(m: MeetingRec): MeetingRec {
    this.meetings.add(m);
    if (m.lead_id) this.meetingsByLead.add(m.lead_id, m);
    return m;
  }
  /** Leads of a workspace in the spec's sort order (last_message_at, reply id), ascending. */
  sortedLeads(workspace: string): readonly LeadRec[] {
    return this.leads.sorted(workspace, 'lead', SORT.lead);
  }
  /**
   * The members of a workspace: people with an assignment row, plus active admins (who
   * have none; their member id is derived the same way). Spec: member resource.
   */
  membersOf(workspace: string): MembershipRec[] {
    const ws = this.workspaces.get(workspace);
    if (!ws) return [];
    const rows = this.memberships.filter((m) => m.workspace === workspace);
    const seen = new Set(rows.map((m) => m.user_id));
    for (const u of this.users.values()) {
      if (u.role === 'admin' && u.active && !seen.has(u.id) && (u.reach === 'all' || u.reach.includes(workspace))) {
        rows.push({ workspace, user_id: u.id, member_id: memberIdOf(u.id, workspace), assignable: ws.admins_assignable, created_at: u.created_at });
      }
    }
    return rows;
  }
  memberByMemberId(workspace: string, memberId: string): MembershipRec | undefined {
    return this.membersOf(workspace).find((m) => m.member_id === memberId);
  }
  memberOfUser(workspace: string, userId: string): MembershipRec | undefined {
    return this.membersOf(workspace).find((m) => m.user_id === userId);
  }
  conversation(lead: LeadRec): MessageRec[] {
    let c = this.conversations.get(lead.id);
    if (!c) this.conversations.set(lead.id, (c = this.conversationOf(lead)));
    return c;
  }
}
