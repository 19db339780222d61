import { type Ctx, type AreaHandlers, wsOf } from '../context.js';
import { fail, notFound } from '../errors.js';
import { keysetPage } from '../paging.js';
import { iso } from '../seed/time.js';
import { SORT } from '../store/store.js';
import type { MeetingRec } from '../store/types.js';
import { meetingView } from '../views/work.js';

function meetingIn(ctx: Ctx): MeetingRec {
  const m = ctx.store.meetings.get(ctx.path.meeting_id ?? '');
  if (!m || m.workspace !== wsOf(ctx).id) notFound('meeting', 'meeting_id');
  return m;
}

/** An open time range given by two exclusive bounds; refused when it cannot hold anything. */
function range(lo: string | undefined, hi: string | undefined, hiParam: string) {
  const a = lo !== undefined ? Date.parse(lo) : -Infinity;
  const b = hi !== undefined ? Date.parse(hi) : Infinity;
  if (a >= b) fail('invalid_request', `'${hiParam}' must be later than its lower bound.`, { param: hiParam });
  return (v: string | null) => (lo === undefined && hi === undefined) || (v !== null && Date.parse(v) > a && Date.parse(v) < b);
}

export const meetingsHandlers = {
  list_meetings(ctx) {
    const ws = wsOf(ctx);
    const q = ctx.query;
    const booked = range(q.booked_since, q.booked_before, 'booked_before');
    const starts = range(q.starts_after, q.starts_before, 'starts_before');
    const outcomes = q.outcome ? new Set<string>(q.outcome) : null;
    const filter = (m: MeetingRec): boolean =>
      (outcomes === null || outcomes.has(m.outcome ?? 'none')) &&
      (q.source === undefined || m.source === q.source) &&
      (q.host_id === undefined || m.host_id === q.host_id) &&
      (q.event_type_id === undefined || m.event_type_id === q.event_type_id) &&
      booked(m.booked_at) &&
      starts(m.starts_at);
    return {
      body: keysetPage({
        cursors: ctx.cursors,
        endpoint: 'list_meetings',
        scope: ws.id,
        req: ctx.page(),
        items: ctx.store.meetings.sorted(ws.id, 'meeting', SORT.meeting),
        keyOf: SORT.meeting,
        filter,
        view: (m) => meetingView(m),
      }),
    };
  },

  get_meeting(ctx) {
    const m = meetingIn(ctx);
    return { body: meetingView(m, { internalNotes: ctx.caller.scopes.has('meetings:write') }) };
  },

  /**
   * Sets the outcome and locks the meeting. A locked meeting keeps its outcome: the same
   * value again changes nothing, a different one needs force=true (else 409 conflict).
   */
  set_meeting_outcome(ctx) {
    const m = meetingIn(ctx);
    const { outcome, force } = ctx.body;
    if (m.locked && m.outcome !== outcome && force !== true) {
      fail('conflict', `This meeting is locked with outcome ${m.outcome ?? 'none'}; send force=true to replace it with ${outcome}.`, { param: 'outcome' });
    }
    const unchanged = m.locked && m.outcome === outcome;
    const lead = m.lead_id ? ctx.store.leads.get(m.lead_id) : undefined;
    let replies: string[] = [];
    if (!unchanged) {
      const now = iso(ctx.now());
      Object.assign(m, { outcome, outcome_at: now, outcome_by_id: ctx.caller.owner.id, locked: true });
      if (lead) {
        // Mirrored to the lead without touching its status (a no-show lead stays interested).
        lead.meeting_outcome = outcome;
        lead.meeting_outcome_at = now;
        replies = ctx.store.repliesByLead.get(lead.id).map((r) => r.id);
      }
    }
    return { body: { ...meetingView(m), effects: { meeting_outcome_set: !unchanged, replies_updated: replies, provider_writes: [] } } };
  },
} satisfies AreaHandlers;
