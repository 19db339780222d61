import type { Rng } from '../rng.js';
import type { Store } from '../store/store.js';
import type { EventTypeRec, LeadRec, MeetingRec, TaskRec } from '../store/types.js';
import { addDays, day, daysBefore, iso } from './time.js';

const DAY_MS = 86_400_000;

/** What seeding one workspace needs to know about its people, computed once. */
interface People {
  /** One-part user ids of active, assignable members: who tasks are given to. */
  assignable: string[];
  /** Every member, inactive ones too: who wrote notes and created tasks over time. */
  all: string[];
  /** Two-part member id → one-part user id. */
  userOf: Map<string, string>;
}

function peopleOf(store: Store, ws: string): People {
  const members = store.membersOf(ws);
  const active = (u: string) => store.users.get(u)?.active === true;
  return {
    assignable: members
      .filter((m) => m.assignable && active(m.user_id))
      .map((m) => m.user_id)
      .sort(),
    all: members.map((m) => m.user_id).sort(),
    userOf: new Map(members.map((m) => [m.member_id, m.user_id])),
  };
}

/** The lead's own assignee when it has one (a one-part id), else someone assignable. */
function ownerOf(lead: LeadRec, people: People, rng: Rng): string | null {
  for (const a of lead.assignments) {
    const u = people.userOf.get(a.member_id);
    if (u && people.assignable.includes(u)) return u;
  }
  return people.assignable.length ? rng.pick(people.assignable) : null;
}

function replyOf(store: Store, lead: LeadRec, rng: Rng): string {
  const replies = store.repliesByLead.get(lead.id);
  return replies.length ? rng.pick(replies).id : lead.latest_reply_id;
}

// ---------------------------------------------------------------- tasks

type SeqStep = { id: string; name: string | null; step_index: number; type: string; title: string };

/** Steps a sequence task can come from; a fixed sequence stands in while none are seeded. */
function sequenceSteps(store: Store, ws: string): SeqStep[] {
  const steps: SeqStep[] = [];
  for (const s of store.sequences.inGroup(ws)) {
    if (s.deleted) continue;
    s.steps.forEach((st, i) => {
      steps.push({ id: s.id, name: s.name, step_index: i, type: st.type, title: st.title ?? `${st.type} step ${i + 1}` });
    });
  }
  if (steps.length) return steps;
  const fallback = [
    ['email', 'Send the case study'],
    ['call', 'Call to follow up'],
    ['linkedin', 'Connect on LinkedIn'],
    ['custom', 'Check the website for news'],
  ];
  return fallback.map(([type, title], i) => ({
    id: `seq_${ws.replace(/[^a-z0-9]/g, '')}followup`,
    name: 'Follow-up after reply',
    step_index: i,
    type: type!,
    title: title!,
  }));
}

type Kind = 'open' | 'open_timed' | 'open_undated' | 'sequence' | 'completed' | 'sequence_done' | 'deleted' | 'deleted_done';
/** The first task-bearing leads of a workspace get one of each kind, so every case exists. */
const FORCED: Kind[] = ['open_timed', 'open', 'sequence', 'completed', 'deleted', 'open_undated', 'sequence_done', 'deleted_done'];
const MANUAL_NOTES = ['Send pricing for 50 seats', 'Ask about their Q1 budget', null, 'Follow up after the demo', 'Confirm the decision maker', null];
const MANUAL_TYPES = ['call', 'email', 'linkedin', 'custom', null] as const;

function randomKind(rng: Rng): Kind {
  const r = rng.next();
  if (r < 0.35) return 'open';
  if (r < 0.5) return 'open_timed';
  if (r < 0.55) return 'open_undated';
  if (r < 0.7) return 'sequence';
  if (r < 0.85) return 'completed';
  if (r < 0.92) return 'sequence_done';
  return r < 0.97 ? 'deleted' : 'deleted_done';
}

function makeTask(store: Store, rng: Rng, lead: LeadRec, people: People, steps: SeqStep[], kind: Kind, forceAssignee?: string): TaskRec {
  const anchor = store.anchor;
  const anchorDay = day(anchor);
  const fromSequence = kind === 'sequence' || kind === 'sequence_done';
  const done = kind === 'completed' || kind === 'sequence_done' || kind === 'deleted_done';
  const step = fromSequence ? rng.pick(steps) : null;
  const due_date = kind === 'open_undated' ? null : addDays(anchorDay, done ? -rng.int(1, 20) : rng.int(-7, 21));
  const due_time =
    kind === 'open_timed' || (due_date !== null && rng.chance(0.3)) ? `${String(rng.int(8, 17)).padStart(2, '0')}:${rng.pick(['00', '15', '30', '45'])}` : null;
  const created = daysBefore(anchor, rng.int(2, 40) + rng.next());
  return {
    id: `tsk_${rng.token(14)}`,
    workspace: lead.workspace,
    lead_id: lead.id,
    reply_id: replyOf(store, lead, rng),
    title: step ? step.title : null,
    notes: step ? null : rng.pick(MANUAL_NOTES),
    task_type: step ? step.type : rng.pick(MANUAL_TYPES),
    due_date,
    due_time,
    status: done ? 'completed' : 'open',
    creator_id: step ? null : rng.pick(people.all),
    assignee_id: forceAssignee ?? ownerOf(lead, people, rng),
    completed_at: done ? daysBefore(anchor, rng.int(0, 10) + rng.next()) : null,
    created_at: created,
    sequence: step ? { id: step.id, name: step.name, step_index: step.step_index } : null,
    deleted_at: kind === 'deleted' || kind === 'deleted_done' ? daysBefore(anchor, rng.next() * 2) : null,
  };
}

function seedTasks(store: Store, rng: Rng, ws: string, leads: readonly LeadRec[], people: People): void {
  const steps = sequenceSteps(store, ws);
  let forced = 0;
  for (const lead of leads) {
    if (!rng.chance(0.3)) continue;
    const count = rng.chance(0.25) ? 2 : 1;
    for (let n = 0; n < count; n++) {
      const kind = forced < FORCED.length ? (FORCED[forced] as Kind) : randomKind(rng);
      // The first forced tasks go to each assignable person in turn, so every key owner has work.
      const assignee = forced < FORCED.length ? people.assignable[forced % Math.max(1, people.assignable.length)] : undefined;
      forced++;
      store.addTask(makeTask(store, rng, lead, people, steps, kind, assignee));
    }
  }
}

// ---------------------------------------------------------------- notes

const NOTE_BODIES = [
  'Spoke on the phone: they are evaluating two other vendors.',
  'Prefers email over calls. Based in Berlin, reply mornings.',
  'CFO signs off above 20k; loop her in early.',
  'Asked for the security questionnaire.',
  '<p>Champion is <b>very</b> keen; procurement is slow.</p>',
  'Not before Q2 - budget is frozen.',
  'Referred by an existing customer.',
];

function seedNotes(store: Store, rng: Rng, ws: string, leads: readonly LeadRec[], people: People): void {
  const anchor = store.anchor.getTime();
  for (const lead of leads) {
    if (!rng.chance(0.15)) continue;
    const count = rng.int(1, 3);
    const base = lead.last_message_at ? Math.min(Date.parse(lead.last_message_at), anchor) : anchor - 5 * DAY_MS;
    for (let n = 0; n < count; n++) {
      const created = base + (rng.int(10, 600 * 24) * 60_000 * (n + 1)) / 10;
      const at = Math.min(created, anchor - 60_000);
      const edited = rng.chance(0.2) ? Math.min(at + rng.int(5, 300) * 60_000, anchor) : at;
      store.addNote({
        id: `note_${rng.token(14)}`,
        workspace: ws,
        lead_id: lead.id,
        reply_id: replyOf(store, lead, rng),
        body: rng.pick(NOTE_BODIES),
        author_id: rng.chance(0.03) ? null : rng.pick(people.all),
        created_at: iso(at),
        updated_at: iso(edited),
      });
    }
  }
}

// ---------------------------------------------------------------- meetings

const CHANNELS = ['Cold Email', 'Cold Email', 'LinkedIn', 'Cold Call', 'Ads', 'Referral', 'Other'];
const ZONES = ['America/New_York', 'Europe/London', 'Europe/Berlin', 'America/Los_Angeles', 'Asia/Kolkata'];
const OUTCOMES = ['showed', 'showed', 'no_show', 'no_show_host', 'cancelled', 'rescheduled'];
const INTERNAL = ['Wants a security review before any pilot.', 'Bring the ROI calculator.', 'Decision maker joins the second half.'];
const GUESTS = [
  { name: 'Sam Ortiz', email: 'sam.ortiz@guest.example' },
  { name: null, email: 'ops@guest.example' },
  { name: 'Lee Park', email: 'lee@guest.example' },
];

interface MeetingPlan {
  lead: LeadRec | null;
  source: 'mark_booked' | 'calendar';
  past: boolean;
  outcome: string | null;
  locked: boolean;
}

function bookableTypes(store: Store, ws: string): EventTypeRec[] {
  return store.eventTypes.inGroup(ws).filter((et) => et.active && et.public && et.hosts.some((h) => h.active && h.calendar_connected));
}

function makeMeeting(store: Store, rng: Rng, ws: string, plan: MeetingPlan, people: People, types: EventTypeRec[]): MeetingRec {
  const anchor = store.anchor.getTime();
  const lead = plan.lead;
  const et = plan.source === 'calendar' && types.length ? rng.pick(types) : null;
  const host = et
    ? (people.userOf.get(rng.pick(et.hosts.filter((h) => h.active)).member_id) ?? null)
    : lead
      ? ownerOf(lead, people, rng)
      : rng.pick(people.assignable);
  const startDay = plan.past ? -rng.int(1, 20) : rng.int(1, 12);
  const halfHour = 1_800_000;
  const outcomeKnown = plan.past && lead?.meeting_outcome_at ? Date.parse(lead.meeting_outcome_at) : null;
  // A meeting whose outcome the lead already carries happened before that outcome was set.
  const starts =
    outcomeKnown !== null
      ? Math.floor((outcomeKnown - rng.int(2, 96) * halfHour) / halfHour) * halfHour
      : Math.floor(anchor / DAY_MS) * DAY_MS + startDay * DAY_MS + rng.int(13, 19) * 3_600_000 + rng.pick([0, halfHour]);
  const booked = lead?.booked_at && Date.parse(lead.booked_at) < starts ? Date.parse(lead.booked_at) : starts - rng.int(1, 9) * DAY_MS;
  const ends = starts + (et?.duration_minutes ?? 30) * 60_000;
  const name = lead ? [lead.first_name, lead.last_name].filter(Boolean).join(' ') || null : rng.pick(['Jordan Blake', 'Priya Nair']);
  const email = lead ? lead.email : `${rng.token(6)}@walkin.example`;
  const fields = et?.form_fields.filter((f) => f.active) ?? [];
  const custom: Record<string, unknown> = {};
  for (const f of fields) {
    if (f.type === 'select') custom[f.field_key] = rng.pick(f.options);
    else if (f.type === 'multiselect') custom[f.field_key] = f.options.filter(() => rng.chance(0.5));
    else if (f.type === 'checkbox') custom[f.field_key] = true;
    else custom[f.field_key] = 'Replacing our spreadsheet pipeline';
  }
  if (et) et.busy.push({ start: iso(starts), end: iso(ends) });
  const outcomeAt = plan.outcome ? (lead?.meeting_outcome_at ?? iso(Math.min(ends + rng.int(1, 48) * 3_600_000, anchor - 60_000))) : null;
  return {
    id: `mtg_${rng.token(14)}`,
    workspace: ws,
    lead_id: lead?.id ?? null,
    event_type_id: et?.id ?? null,
    source: plan.source,
    booked_at: iso(booked),
    booked_by_id: plan.source === 'mark_booked' ? host : null,
    host_id: host,
    starts_at: iso(starts),
    ends_at: iso(ends),
    timezone: rng.pick(ZONES),
    invitee: { name, email, phone: rng.chance(0.3) ? `+1 555 01${rng.int(10, 99)}` : null },
    email,
    name,
    company_name: lead?.company_name ?? null,
    domain: email.split('@')[1] ?? null,
    guests: rng.chance(0.3) ? [rng.pick(GUESTS)] : rng.chance(0.1) ? GUESTS.slice(0, 2).map((g) => ({ ...g })) : [],
    custom_fields: custom,
    utm_params:
      plan.source === 'calendar'
        ? { utm_source: 'cold_email', utm_medium: 'email', utm_campaign: (lead?.campaign_name ?? 'direct').toLowerCase().replace(/\W+/g, '-') }
        : {},
    channel: plan.source === 'calendar' ? rng.pick(CHANNELS) : 'Cold Email',
    confirmation_status: et?.requires_confirmation && !plan.past ? 'pending' : rng.chance(0.08) ? 'declined' : 'confirmed',
    location: et ? { type: et.location.type, phone: et.location.phone } : { type: 'google_meet', phone: null },
    outcome: plan.outcome,
    outcome_at: outcomeAt,
    outcome_by_id: plan.outcome && plan.locked ? (host ?? rng.pick(people.assignable)) : null,
    locked: plan.locked,
    created_at: iso(booked),
    internal_notes: rng.chance(0.4) ? rng.pick(INTERNAL) : null,
  };
}

function seedMeetings(store: Store, rng: Rng, ws: string, leads: readonly LeadRec[], people: People): void {
  const types = bookableTypes(store, ws);
  const plans: MeetingPlan[] = [];
  for (const lead of leads) {
    if (lead.meeting_outcome !== null) {
      plans.push({ lead, source: rng.chance(0.5) ? 'calendar' : 'mark_booked', past: true, outcome: lead.meeting_outcome, locked: true });
    } else if (lead.state === 'booked' || lead.booked_at !== null) {
      plans.push({ lead, source: rng.chance(0.6) ? 'calendar' : 'mark_booked', past: rng.chance(0.3), outcome: null, locked: false });
    }
  }
  // Until the lead seed books anyone, a few leads stand in so every meeting case exists.
  if (!plans.some((p) => p.outcome) && leads.length) {
    for (const lead of leads.slice(0, 3)) {
      const outcome = rng.pick(OUTCOMES);
      lead.meeting_outcome = outcome;
      lead.meeting_outcome_at = null;
      plans.push({ lead, source: plans.length % 2 ? 'calendar' : 'mark_booked', past: true, outcome, locked: true });
    }
  }
  if (!plans.some((p) => !p.outcome) && leads.length > 3) {
    for (const lead of leads.slice(3, 6)) plans.push({ lead, source: 'calendar', past: false, outcome: null, locked: false });
  }
  // Bookings from the public page by people who are not leads, one cancelled on the calendar itself.
  plans.push({ lead: null, source: 'calendar', past: false, outcome: null, locked: false });
  plans.push({ lead: null, source: 'calendar', past: true, outcome: 'cancelled', locked: false });
  for (const plan of plans) {
    const m = makeMeeting(store, rng, ws, plan, people, types);
    if (plan.lead && plan.outcome && plan.lead.meeting_outcome_at === null) plan.lead.meeting_outcome_at = m.outcome_at;
    store.addMeeting(m);
  }
  for (const et of types) et.busy.sort((a, b) => (a.start < b.start ? -1 : 1));
}

/** Seeds tasks, notes and meetings: O(leads), a fraction of leads get each. */
export function seedWork(store: Store, rng: Rng, _opts: { leads: number }): void {
  for (const ws of store.workspaces.keys()) {
    const leads = store.leads.inGroup(ws);
    if (!leads.length) continue;
    const people = peopleOf(store, ws);
    if (!people.assignable.length) continue;
    seedTasks(store, rng, ws, leads, people);
    seedNotes(store, rng, ws, leads, people);
    seedMeetings(store, rng, ws, leads, people);
  }
}
