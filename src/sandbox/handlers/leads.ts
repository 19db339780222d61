import { randomBytes } from 'node:crypto';
import { type AreaHandlers, type Ctx, type CtxOf, wsOf } from '../context.js';
import { fail, notFound } from '../errors.js';
import { compareKeys, keysetPage, wholeList } from '../paging.js';
import { iso } from '../seed/time.js';
import { SORT } from '../store/store.js';
import type { LeadRec, MeetingRec } from '../store/types.js';
import { assigneesOf, earliestDue, isResponded, isUnread, leadTagView, leadTagsOf, leadView, openTasksOf, ownerOpenTasks, replyView } from '../views/lead.js';
import { memberView } from '../views/people.js';

/** The path lead, or 404: a lead of another workspace is not found (general rule 9). */
export function leadOf(ctx: Ctx): LeadRec {
  const lead = ctx.store.leads.get(ctx.path.lead_id ?? '');
  if (!lead || lead.workspace !== wsOf(ctx).id) notFound('lead', 'lead_id');
  return lead;
}

const effects = (e: Record<string, unknown>) => ({ ...e, provider_writes: [] as unknown[] });
const ms = (s: string | null) => (s === null ? Number.NaN : Date.parse(s));

/**
 * A write stamp that covers everything already received: real time, or the newest inbound
 * reply when --now places seeded data after the real clock (else a read would stay unread).
 */
function coveringStamp(ctx: Ctx, lead: LeadRec): string {
  const now = ctx.now().getTime();
  const inbound = ms(lead.last_inbound_at);
  return iso(Number.isNaN(inbound) ? now : Math.max(now, inbound));
}

// ---- q: prefix search over name, email, company, title and subject ----

/** Lowercased tokens; any punctuation or space splits. */
function tokens(s: string): string[] {
  return s
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);
}
const tokenCache = new WeakMap<LeadRec, { src: string; tokens: string[] }>();
function leadTokens(l: LeadRec): string[] {
  const src = [l.first_name, l.last_name, l.email, l.company_name, l.title, l.subject].join('\u0000');
  const hit = tokenCache.get(l);
  if (hit && hit.src === src) return hit.tokens;
  const t = tokens(src);
  tokenCache.set(l, { src, tokens: t });
  return t;
}

// ---- list filters (Lead list filter rules), all applied before paging ----

type Pred = (l: LeadRec) => boolean;
type LeadList = CtxOf<'list_leads'>;

/** Filters naming a campaign, tag or member outside the workspace are 404, not an empty page. */
function checkRefs(ctx: LeadList): void {
  const { store, query } = ctx;
  const ws = wsOf(ctx).id;
  if (query.campaign_id !== undefined && store.campaigns.get(query.campaign_id)?.workspace !== ws) notFound('campaign', 'campaign_id');
  for (const id of query.lead_tag_id ?? []) {
    if (store.leadTags.get(id)?.workspace !== ws) fail('not_found', `No lead tag ${id} in this workspace.`, { param: 'lead_tag_id' });
  }
  const members = new Set(store.membersOf(ws).map((m) => m.member_id));
  for (const id of query.assignee_id ?? []) {
    if (id !== 'none' && !members.has(id)) fail('not_found', `No member ${id} in this workspace.`, { param: 'assignee_id' });
  }
}

function listFilters(ctx: LeadList): Pred[] {
  const { store, query } = ctx;
  const owner = ctx.caller.owner.id;
  const preds: Pred[] = [];
  if (query.status) {
    const want = new Set<string>(query.status);
    preds.push((l) => want.has(l.status) || (l.state !== 'active' && want.has(l.state)));
  }
  if (query.campaign_id) preds.push((l) => l.campaign_id === query.campaign_id);
  if (query.assignee_id) {
    const want = new Set<string>(query.assignee_id);
    preds.push((l) => (l.assignments.length === 0 ? want.has('none') : l.assignments.some((a) => want.has(a.member_id))));
  }
  if (query.lead_tag_id) {
    const want = new Set<string>(query.lead_tag_id);
    preds.push((l) => l.tag_ids.some((t) => want.has(t)));
  }
  if (query.q !== undefined) {
    const qs = tokens(query.q);
    preds.push(
      qs.length === 0
        ? () => false
        : (l) => {
            const have = leadTokens(l);
            return qs.every((q) => have.some((t) => t.startsWith(q)));
          },
    );
  }
  if (query.has_open_task !== undefined) preds.push((l) => ownerOpenTasks(store, l, owner).length > 0 === query.has_open_task);
  if (query.task_due_before !== undefined) {
    const before = query.task_due_before;
    preds.push((l) => {
      const next = earliestDue(ownerOpenTasks(store, l, owner));
      return next !== null && next < before;
    });
  }
  if (query.meeting_outcome) {
    const want = new Set<string>(query.meeting_outcome);
    preds.push((l) => (l.meeting_outcome === null ? want.has('none') : want.has(l.meeting_outcome)));
  }
  if (query.direction) preds.push((l) => l.last_message_direction === query.direction);
  if (query.updated_since) {
    const t = Date.parse(query.updated_since);
    preds.push((l) => ms(l.last_message_at) > t);
  }
  if (query.updated_before) {
    const t = Date.parse(query.updated_before);
    preds.push((l) => ms(l.last_message_at) < t);
  }
  if (query.unread !== undefined) preds.push((l) => isUnread(l, owner) === query.unread);
  if (query.responded !== undefined) preds.push((l) => isResponded(l) === query.responded);
  if (query.priority !== undefined) preds.push((l) => l.priority_by.has(owner) === query.priority);
  return preds;
}

/** First index whose item satisfies a predicate that is false, then true, along the array. */
function partition<T>(items: readonly T[], pred: (t: T) => boolean): number {
  let lo = 0;
  let hi = items.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (pred(items[mid] as T)) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

/** The candidates: one lead by email (an index), or the time window cut by binary search. */
function candidates(ctx: LeadList): readonly LeadRec[] {
  const { store, query } = ctx;
  const ws = wsOf(ctx).id;
  if (query.email) {
    const l = store.leadByEmail.get(`${ws}\u0000${query.email.toLowerCase()}`);
    return l && l.workspace === ws ? [l] : [];
  }
  const sorted = store.sortedLeads(ws);
  if (!query.updated_since && !query.updated_before) return sorted;
  const since = query.updated_since ? Date.parse(query.updated_since) : -Infinity;
  const before = query.updated_before ? Date.parse(query.updated_before) : Infinity;
  const lo = partition(sorted, (l) => l.last_message_at !== null && ms(l.last_message_at) > since);
  const hi = partition(sorted, (l) => l.last_message_at !== null && ms(l.last_message_at) >= before);
  return lo < hi ? sorted.slice(lo, hi) : [];
}

// ---- writes ----

function completeOpenTasks(ctx: Ctx, lead: LeadRec, at: string): string[] {
  const done: string[] = [];
  for (const t of openTasksOf(ctx.store, lead)) {
    t.status = 'completed';
    t.completed_at = at;
    done.push(t.id);
  }
  return done;
}

/** The lead as the key's owner sees it, for write responses. */
function ownerView(ctx: Ctx, lead: LeadRec) {
  return leadView(ctx.store, lead, ctx.caller.owner.id);
}

/** A mark_booked meeting: local, no calendar event, hosted by the key owner. */
function bookedMeeting(ctx: Ctx, lead: LeadRec, at: string): MeetingRec {
  const name = [lead.first_name, lead.last_name].filter(Boolean).join(' ') || null;
  return {
    id: `mtg_${randomBytes(9).toString('hex')}`,
    workspace: lead.workspace,
    lead_id: lead.id,
    event_type_id: null,
    source: 'mark_booked',
    booked_at: at,
    booked_by_id: ctx.caller.owner.id,
    host_id: ctx.caller.owner.id,
    starts_at: null,
    ends_at: null,
    timezone: ctx.caller.owner.timezone,
    invitee: { name, email: lead.email, phone: null },
    email: lead.email,
    name,
    company_name: lead.company_name,
    domain: lead.email.split('@')[1] ?? null,
    guests: [],
    custom_fields: {},
    utm_params: {},
    channel: 'Cold Email',
    confirmation_status: 'confirmed',
    location: { type: null, phone: null },
    outcome: null,
    outcome_at: null,
    outcome_by_id: null,
    locked: false,
    created_at: at,
    internal_notes: null,
  };
}

export const leadsHandlers = {
  list_leads(ctx) {
    const ws = wsOf(ctx);
    checkRefs(ctx);
    const preds = listFilters(ctx);
    const owner = ctx.caller.owner.id;
    const expand = ctx.query.expand ?? [];
    return {
      body: keysetPage({
        cursors: ctx.cursors,
        endpoint: 'list_leads',
        scope: ws.id,
        req: ctx.page(),
        items: candidates(ctx),
        keyOf: SORT.lead,
        filter: preds.length ? (l) => preds.every((p) => p(l)) : undefined,
        view: (l) => leadView(ctx.store, l, owner, { expand }),
      }),
    };
  },

  get_lead(ctx) {
    const lead = leadOf(ctx);
    const q = ctx.query;
    return { body: leadView(ctx.store, lead, ctx.caller.owner.id, { expand: q.expand ?? [], include: q.include ?? [] }) };
  },

  list_replies(ctx) {
    const lead = leadOf(ctx);
    const items = [...ctx.store.repliesByLead.get(lead.id)].sort((a, b) => compareKeys(SORT.reply(a), SORT.reply(b)));
    return {
      body: keysetPage({
        cursors: ctx.cursors,
        endpoint: 'list_replies',
        scope: `${lead.workspace}/${lead.id}`,
        req: ctx.page(),
        items,
        keyOf: SORT.reply,
        view: replyView,
      }),
    };
  },

  get_assignees(ctx) {
    return { body: wholeList(assigneesOf(ctx.store, leadOf(ctx))) };
  },

  set_assignees(ctx) {
    const lead = leadOf(ctx);
    const { store } = ctx;
    const wanted = [...new Set(ctx.body.member_ids)];
    const members = store.membersOf(lead.workspace);
    for (const id of wanted) {
      const m = members.find((x) => x.member_id === id);
      if (!m || !memberView(store, m).assignable) {
        fail('unprocessable', `${id} is not an assignable member of workspace ${lead.workspace}; nothing was changed.`, { param: 'member_ids' });
      }
    }
    const now = iso(ctx.now());
    const before = new Map(lead.assignments.map((a) => [a.member_id, a]));
    lead.assignments = wanted.map((id) => ({ member_id: id, source: 'manual' as const, assigned_at: before.get(id)?.assigned_at ?? now }));
    const added = wanted.filter((id) => !before.has(id));
    const removed = [...before.keys()].filter((id) => !wanted.includes(id));
    return { body: { ...wholeList(assigneesOf(store, lead)), effects: effects({ assignees_added: added, assignees_removed: removed }) } };
  },

  list_lead_tags(ctx) {
    const ws = wsOf(ctx);
    return {
      body: keysetPage({
        cursors: ctx.cursors,
        endpoint: 'list_lead_tags',
        scope: ws.id,
        req: ctx.page(),
        defaultOrder: 'asc',
        items: ctx.store.leadTags.sorted(ws.id, 'ordered', SORT.ordered),
        keyOf: SORT.ordered,
        view: leadTagView,
      }),
    };
  },

  get_lead_tags(ctx) {
    return { body: wholeList(leadTagsOf(ctx.store, leadOf(ctx))) };
  },

  set_lead_tags(ctx) {
    const lead = leadOf(ctx);
    const wanted = [...new Set(ctx.body.tag_ids)];
    for (const id of wanted) {
      if (ctx.store.leadTags.get(id)?.workspace !== lead.workspace) {
        fail('unprocessable', `${id} is not a lead tag of workspace ${lead.workspace}; nothing was changed.`, { param: 'tag_ids' });
      }
    }
    const kept = lead.tag_ids.filter((id) => wanted.includes(id));
    const added = wanted.filter((id) => !lead.tag_ids.includes(id));
    const removed = lead.tag_ids.filter((id) => !wanted.includes(id));
    lead.tag_ids = [...kept, ...added];
    return { body: { ...wholeList(leadTagsOf(ctx.store, lead)), effects: effects({ tags_added: added, tags_removed: removed }) } };
  },

  set_priority(ctx) {
    const ws = wsOf(ctx);
    const body = ctx.body;
    const ids = [...new Set(body.lead_ids)];
    const leads = ids.map((id) => {
      const l = ctx.store.leads.get(id);
      if (!l || l.workspace !== ws.id) fail('not_found', `No lead ${id} in this workspace; nothing was changed.`, { param: 'lead_ids' });
      return l;
    });
    const owner = ctx.caller.owner.id;
    const changed: string[] = [];
    for (const l of leads) {
      if (l.priority_by.has(owner) === body.priority) continue;
      if (body.priority) l.priority_by.add(owner);
      else l.priority_by.delete(owner);
      changed.push(l.id);
    }
    return {
      body: {
        object: 'lead_priority_update',
        workspace: ws.id,
        priority: body.priority,
        lead_ids: ids,
        matched_count: ids.length,
        updated_count: changed.length,
        effects: effects({ lead_priorities_changed: changed, lead_priority_set: changed.length > 0 }),
      },
    };
  },

  set_status(ctx) {
    const lead = leadOf(ctx);
    const input = ctx.body.status;
    const status = input === 'dnc' ? 'unsubscribed' : input;
    const now = iso(ctx.now());
    lead.status = status;
    lead.last_action_at = now;
    const replies = ctx.store.repliesByLead.get(lead.id);
    for (const r of replies) r.status = status;
    const closes = status === 'not_interested' || status === 'unsubscribed';
    const done = closes ? completeOpenTasks(ctx, lead, now) : [];
    return {
      body: {
        ...ownerView(ctx, lead),
        effects: effects({ lead_status_set: true, replies_updated: replies.map((r) => r.id), tasks_completed: done }),
      },
    };
  },

  mark_read(ctx) {
    const lead = leadOf(ctx);
    const stamp = coveringStamp(ctx, lead);
    lead.receipts.set(ctx.caller.owner.id, stamp);
    if (lead.workspace_read_at === null || ms(stamp) > ms(lead.workspace_read_at)) lead.workspace_read_at = stamp;
    const replies = ctx.store.repliesByLead.get(lead.id).map((r) => r.id);
    return {
      body: {
        object: 'lead',
        id: lead.id,
        unread: isUnread(lead, ctx.caller.owner.id),
        effects: effects({ read_receipts_written: 1, workspace_read_at: stamp, replies_updated: replies }),
      },
    };
  },

  mark_unread(ctx) {
    const lead = leadOf(ctx);
    const had = lead.receipts.delete(ctx.caller.owner.id);
    const replies = ctx.store.repliesByLead.get(lead.id).map((r) => r.id);
    return {
      body: {
        object: 'lead',
        id: lead.id,
        unread: isUnread(lead, ctx.caller.owner.id),
        effects: effects({ read_receipts_cleared: had ? 1 : 0, replies_updated: replies }),
      },
    };
  },

  mark_responded(ctx) {
    const lead = leadOf(ctx);
    const was = isResponded(lead);
    lead.responded_at = coveringStamp(ctx, lead);
    lead.last_action_at = iso(ctx.now());
    return { body: { ...ownerView(ctx, lead), effects: effects({ lead_responded_set: !was }) } };
  },

  mark_booked(ctx) {
    const lead = leadOf(ctx);
    const body = ctx.body;
    const now = iso(ctx.now());
    const already = lead.state === 'booked';
    if (!already) {
      lead.state = 'booked';
      lead.booked_at = now;
    }
    lead.last_action_at = now;
    const done = completeOpenTasks(ctx, lead, now);
    const meeting = body.create_meeting === true && !already ? ctx.store.addMeeting(bookedMeeting(ctx, lead, now)) : null;
    return {
      body: {
        ...ownerView(ctx, lead),
        effects: effects({ lead_state_set: !already, tasks_completed: done, meeting_created: meeting?.id ?? null }),
      },
    };
  },

  mark_disqualified(ctx) {
    const lead = leadOf(ctx);
    const body = ctx.body;
    const now = iso(ctx.now());
    const already = lead.state === 'disqualified';
    if (!already) {
      lead.state = 'disqualified';
      lead.disqualified_at = now;
    }
    if (body.reengage_approved !== undefined) lead.reengage_approved = body.reengage_approved;
    lead.last_action_at = now;
    const done = completeOpenTasks(ctx, lead, now);
    return {
      body: {
        ...ownerView(ctx, lead),
        effects: effects({ lead_state_set: !already, tasks_completed: done, reengage_approved: lead.reengage_approved }),
      },
    };
  },
} satisfies AreaHandlers;
