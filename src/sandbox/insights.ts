import { DAY_MS, type SearchWindow } from '../api/checks.js';
import { day, iso } from './seed/time.js';
import type { Store } from './store/store.js';
import type { CampaignRec, LeadRec, MeetingRec, ReplyRec } from './store/types.js';

/** A window of instants, half-open: from <= t < to (resolved by the endpoint table's rule). */
export type InsightWindow = SearchWindow;

/** The UTC days of a daily window, both ends included. */
export function daysOf(w: InsightWindow): string[] {
  const out: string[] = [];
  for (let t = w.fromMs; t < w.toMs; t += DAY_MS) out.push(day(t));
  return out;
}

const inWindow = (w: InsightWindow, t: string | null) => {
  if (t === null) return false;
  const at = Date.parse(t);
  return at >= w.fromMs && at < w.toMs;
};

/** A response counts as positive when the reply is tagged interested. */
export const isPositive = (r: ReplyRec) => r.status === 'interested';

// ---------------------------------------------------------------- sending model

/** FNV-1a, so each campaign's synthetic figures follow from its id alone. */
function hash(s: string): number {
  let h = 2166136261;
  for (const ch of s) h = Math.imul(h ^ ch.charCodeAt(0), 16777619);
  return h >>> 0;
}
const dayIndex = (d: string) => Math.floor(Date.parse(`${d}T00:00:00Z`) / DAY_MS);
/** Days between one step's emails and the next. */
const STEP_GAP_DAYS = 3;

/**
 * The upstream sending figures are synthetic: each campaign enrols its contacts evenly over
 * an enrolment period, and step s of a contact goes out STEP_GAP_DAYS * s days after step 1.
 * Drafts never send; active campaigns keep enrolling 30 days past the anchor; paused ones
 * stopped a week before it; other statuses finished 20 days before it.
 */
export class SendingModel {
  private readonly anchorDay: number;
  private readonly todayIndex: number;
  constructor(store: Store, now: Date) {
    this.anchorDay = dayIndex(day(store.anchor));
    this.todayIndex = dayIndex(day(now));
  }
  private plan(c: CampaignRec): { start: number; end: number; perDay: number } | null {
    if (c.status === 'draft') return null;
    const start = dayIndex(c.started_on);
    const offset = c.status === 'active' ? 30 : c.status === 'paused' ? -7 : -20;
    const end = Math.max(start, this.anchorDay + offset);
    return { start, end, perDay: c.contacts / (end - start + 1) };
  }
  /** Contacts who get step 1 on day index d (whole numbers that add up to c.contacts). */
  enrolled(c: CampaignRec, d: number): number {
    const p = this.plan(c);
    if (!p || d < p.start || d > p.end || d > this.todayIndex) return 0;
    return Math.floor((d - p.start + 1) * p.perDay) - Math.floor((d - p.start) * p.perDay);
  }
  /** Emails of step `s` (0-based) sent on day index d. */
  sent(c: CampaignRec, d: number, s: number): number {
    return d > this.todayIndex ? 0 : this.enrolled(c, d - STEP_GAP_DAYS * s);
  }
  /** Bounces among `contacts` first emails: 1 to 4 percent, by campaign. */
  bounced(c: CampaignRec, contacts: number): number {
    return Math.floor((contacts * (1 + (hash(c.id) % 4))) / 100);
  }
}

/** Day indexes whose start lies in the window: sending figures are per UTC day. */
function windowDays(w: InsightWindow): number[] {
  const out: number[] = [];
  for (let d = Math.ceil(w.fromMs / DAY_MS); d * DAY_MS < w.toMs; d++) out.push(d);
  return out;
}

/** The step a lead answered, fixed per lead so every reply of a lead lands on one step. */
export function stepOfLead(leadId: string, stepCount: number): number {
  return stepCount > 0 ? hash(leadId) % stepCount : 0;
}

// ---------------------------------------------------------------- figures

interface Facts {
  replies: ReplyRec[];
  meetings: MeetingRec[];
}

/** Replies received and meetings booked in the window. */
function facts(store: Store, ws: string, w: InsightWindow): Facts {
  return {
    replies: store.replies.inGroup(ws).filter((r) => inWindow(w, r.received_at)),
    meetings: store.meetings.inGroup(ws).filter((m) => inWindow(w, m.booked_at)),
  };
}

/** One person's share: replies of leads assigned to them, meetings they host. */
function narrow(store: Store, f: Facts, scope: { memberId: string; userId: string }): Facts {
  const assigned = (leadId: string) => store.leads.get(leadId)?.assignments.some((a) => a.member_id === scope.memberId) ?? false;
  return { replies: f.replies.filter((r) => assigned(r.lead_id)), meetings: f.meetings.filter((m) => m.host_id === scope.userId) };
}

const rate = (num: number, den: number) => (den > 0 ? num / den : null);
const avg = (xs: number[]) => (xs.length ? Math.round(xs.reduce((a, b) => a + b, 0) / xs.length) : null);

/** The speed-to-lead feature began 60 days before the anchor; earlier replies are not measured. */
export const SPEED_TO_LEAD_SINCE_DAYS = 60;

export interface SpeedSample {
  lead: LeadRec;
  seconds: number;
  first: boolean;
}

/**
 * One sample per lead answered in the window: the lead's responded stamp measured against
 * the newest reply received before it; a first response when that reply was the lead's
 * first, else a follow-up.
 */
export function speedSamples(store: Store, ws: string, w: InsightWindow): SpeedSample[] {
  const since = store.anchor.getTime() - SPEED_TO_LEAD_SINCE_DAYS * DAY_MS;
  const out: SpeedSample[] = [];
  for (const lead of store.leads.inGroup(ws)) {
    if (!lead.responded_at) continue;
    const answeredAt = Date.parse(lead.responded_at);
    const replies = store.repliesByLead.get(lead.id).filter((r) => r.received_at !== null);
    const before = replies.filter((r) => Date.parse(r.received_at!) <= answeredAt);
    if (!before.length) continue;
    const answered = before.reduce((a, b) => (b.received_at! > a.received_at! ? b : a));
    const receivedAt = Date.parse(answered.received_at!);
    if (receivedAt < since || !inWindow(w, answered.received_at)) continue;
    const first = replies.every((r) => r.received_at! >= answered.received_at!);
    out.push({ lead, seconds: Math.round((answeredAt - receivedAt) / 1000), first });
  }
  return out;
}

function speedOf(samples: SpeedSample[]) {
  const first = samples.filter((s) => s.first).map((s) => s.seconds);
  const follow = samples.filter((s) => !s.first).map((s) => s.seconds);
  return { first_response_avg_sec: avg(first), first_response_count: first.length, followup_avg_sec: avg(follow), followup_count: follow.length };
}

/** Interested leads (a positive reply in the window) and which of them booked a meeting in it. */
function interest(f: Facts) {
  const interested = new Set(f.replies.filter(isPositive).map((r) => r.lead_id));
  const bookedLeads = new Set(f.meetings.flatMap((m) => (m.lead_id ? [m.lead_id] : [])));
  const booked = [...interested].filter((id) => bookedLeads.has(id)).length;
  return { interested: interested.size, booked };
}

function meetingFigures(meetings: MeetingRec[]) {
  const showed = meetings.filter((m) => m.outcome === 'showed').length;
  const withOutcome = meetings.filter((m) => m.outcome !== null).length;
  return { booked: meetings.length, showed, withOutcome, showRate: rate(showed, withOutcome) };
}

/** Speed buckets of first responses, by how long the lead waited. */
export const SPEED_BUCKETS: readonly { label: string; maxSec: number }[] = [
  { label: 'under_5m', maxSec: 300 },
  { label: '5m_to_30m', maxSec: 1800 },
  { label: '30m_to_2h', maxSec: 7200 },
  { label: '2h_to_24h', maxSec: 86_400 },
  { label: 'over_24h', maxSec: Number.POSITIVE_INFINITY },
];

export function summary(store: Store, ws: string, w: InsightWindow, now: Date, member?: { memberId: string; userId: string }) {
  const all = facts(store, ws, w);
  const f = member ? narrow(store, all, member) : all;
  const m = meetingFigures(f.meetings);
  const i = interest(f);
  const samples = speedSamples(store, ws, w);
  const mine = member ? samples.filter((s) => s.lead.assignments.some((a) => a.member_id === member.memberId)) : samples;
  const members = store
    .membersOf(ws)
    .filter((x) => !member || x.member_id === member.memberId)
    .sort((a, b) => (a.member_id < b.member_id ? -1 : 1));
  const bookedLeads = new Set(f.meetings.flatMap((x) => (x.lead_id ? [x.lead_id] : [])));
  const showedLeads = new Set(f.meetings.filter((x) => x.outcome === 'showed').flatMap((x) => (x.lead_id ? [x.lead_id] : [])));
  const firsts = mine.filter((s) => s.first);
  return {
    object: 'insights_summary',
    workspace: ws,
    window: { from: iso(w.fromMs), to: iso(w.toMs) },
    funnel: {
      all_responses: f.replies.length,
      positive_responses: f.replies.filter(isPositive).length,
      booked_meetings: m.booked,
      showed_meetings: m.showed,
    },
    headline: {
      total_meetings_booked: m.booked,
      meetings_with_outcome: m.withOutcome,
      show_rate: m.showRate,
      total_interested_leads: i.interested,
      booked_interested_leads: i.booked,
      booking_rate: rate(i.booked, i.interested),
    },
    speed_to_lead: speedOf(mine),
    per_rep: members.map((x) => {
      const rf = narrow(store, all, { memberId: x.member_id, userId: x.user_id });
      const rm = meetingFigures(rf.meetings);
      const ri = interest(rf);
      return {
        member_id: x.member_id,
        name: store.users.get(x.user_id)?.name ?? null,
        meetings_booked: rm.booked,
        showed_meetings: rm.showed,
        meetings_with_outcome: rm.withOutcome,
        show_rate: rm.showRate,
        interested_leads: ri.interested,
        booked_from_interested: ri.booked,
        booking_rate: rate(ri.booked, ri.interested),
        ...speedOf(samples.filter((s) => s.lead.assignments.some((a) => a.member_id === x.member_id))),
      };
    }),
    speed_buckets: SPEED_BUCKETS.map((b, k) => {
      const lo = k === 0 ? 0 : (SPEED_BUCKETS[k - 1] as { maxSec: number }).maxSec;
      const inB = firsts.filter((s) => s.seconds >= lo && s.seconds < b.maxSec);
      const booked = inB.filter((s) => bookedLeads.has(s.lead.id)).length;
      const showed = inB.filter((s) => showedLeads.has(s.lead.id)).length;
      return { label: b.label, n: inB.length, booked, showed, booking_rate: rate(booked, inB.length), show_rate: rate(showed, booked) };
    }),
    generated_at: iso(now),
  };
}

export function campaignInsight(store: Store, model: SendingModel, c: CampaignRec, w: InsightWindow, tags: { id: string; name: string }[]) {
  const days = windowDays(w);
  const k = c.steps.length;
  const replies = store.replies.inGroup(c.workspace).filter((r) => r.campaign_id === c.id && inWindow(w, r.received_at));
  const meetings = store.meetings
    .inGroup(c.workspace)
    .filter((m) => m.lead_id !== null && inWindow(w, m.booked_at) && store.leads.get(m.lead_id)?.campaign_id === c.id);
  const contacts = days.reduce((n, d) => n + model.enrolled(c, d), 0);
  const steps = c.steps.map((st, s) => {
    const sent = days.reduce((n, d) => n + model.sent(c, d, s), 0);
    const mine = replies.filter((r) => stepOfLead(r.lead_id, k) === s);
    return {
      object: 'campaign_step' as const,
      step_id: st.step_id,
      label: st.label,
      subject: st.subject,
      sent,
      contacts: sent,
      replies: mine.length,
      interested: mine.filter(isPositive).length,
    };
  });
  return {
    object: 'campaign_insight' as const,
    campaign_id: c.id,
    campaign_name: c.name,
    status: c.status,
    emails_sent: steps.reduce((n, s) => n + s.sent, 0),
    contacts,
    replies: replies.length,
    interested: replies.filter(isPositive).length,
    bounced: model.bounced(c, contacts),
    booked: meetings.length,
    showed: meetings.filter((m) => m.outcome === 'showed').length,
    tags,
    steps,
  };
}

/** One point per UTC day of the window, zeros included. */
export function dailySeries(store: Store, ws: string, campaigns: readonly CampaignRec[], model: SendingModel, days: string[], w: InsightWindow) {
  const points = new Map(days.map((d) => [d, { object: 'daily_point' as const, date: d, emails_sent: 0, responses: 0, positive_responses: 0, booked: 0 }]));
  for (const d of days) {
    const p = points.get(d)!;
    const idx = dayIndex(d);
    for (const c of campaigns) for (let s = 0; s < c.steps.length; s++) p.emails_sent += model.sent(c, idx, s);
  }
  for (const r of store.replies.inGroup(ws)) {
    if (!inWindow(w, r.received_at)) continue;
    const p = points.get(day(Date.parse(r.received_at!)));
    if (!p) continue;
    p.responses++;
    if (isPositive(r)) p.positive_responses++;
  }
  for (const m of store.meetings.inGroup(ws)) {
    if (!inWindow(w, m.booked_at)) continue;
    const p = points.get(day(Date.parse(m.booked_at!)));
    if (p) p.booked++;
  }
  return days.map((d) => points.get(d)!);
}
