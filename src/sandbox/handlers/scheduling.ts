import { DAY_MS } from '../../api/checks.js';
import { type Ctx, type AreaHandlers, wsOf } from '../context.js';
import { notFound } from '../errors.js';
import { keysetPage } from '../paging.js';
import { iso } from '../seed/time.js';
import { SORT } from '../store/store.js';
import type { EventTypeRec } from '../store/types.js';
import { activeHosts, eventTypeView, freeSlots } from '../views/scheduling.js';

function eventTypeIn(ctx: Ctx): EventTypeRec {
  const et = ctx.store.eventTypes.get(ctx.path.event_type_id ?? '');
  if (!et || et.workspace !== wsOf(ctx).id) notFound('event type', 'event_type_id');
  return et;
}

/** Why an event type can offer nothing, whatever the window; null when it can. */
function blockedReason(ctx: Ctx, et: EventTypeRec): string | null {
  if (!et.active) return 'event_type_inactive';
  const hosts = activeHosts(ctx.store, et);
  if (hosts.length === 0) return 'no_active_hosts';
  const connected = et.scheduling_type === 'collective' ? hosts.every((h) => h.calendar_connected) : hosts.some((h) => h.calendar_connected);
  return connected ? null : 'no_calendar_connected';
}

export const schedulingHandlers = {
  list_event_types(ctx) {
    const ws = wsOf(ctx);
    const { active, public: isPublic } = ctx.query;
    return {
      body: keysetPage({
        cursors: ctx.cursors,
        endpoint: 'list_event_types',
        scope: ws.id,
        req: ctx.page(),
        items: ctx.store.eventTypes.sorted(ws.id, 'ordered', SORT.ordered),
        keyOf: SORT.ordered,
        filter: (et) => (active === undefined || et.active === active) && (isPublic === undefined || et.public === isPublic),
        view: (et) => eventTypeView(et),
      }),
    };
  },

  get_event_type: (ctx) => ({ body: eventTypeView(eventTypeIn(ctx), { detail: true }) }),

  /**
   * The caller's window, already bounded by the table's rule (to after from, clamped to 60
   * days), is clamped to the bookable range: from now + minimum notice to now + the booking window.
   */
  get_slots(ctx) {
    const et = eventTypeIn(ctx);
    const q = ctx.query;
    const now = ctx.now().getTime();
    // The table gives get_slots a window rule, so the server has resolved it.
    const { fromMs: from, toMs: to } = ctx.window!;
    const earliest = Math.ceil((now + et.minimum_notice_minutes * 60_000) / 60_000) * 60_000;
    const latest = now + et.public_booking_window_days * DAY_MS;
    const start = Math.max(from, earliest);
    const end = Math.min(to, latest);
    const base = {
      object: 'availability' as const,
      event_type_id: et.id,
      duration_minutes: et.duration_minutes,
      timezone: q.timezone ?? et.availability.timezone,
    };
    const blocked = blockedReason(ctx, et);
    if (end <= start) return { body: { ...base, window: { from: null, to: null }, slots: [], reason: blocked ?? 'outside_booking_window' } };
    const window = { from: iso(start), to: iso(end) };
    if (blocked) return { body: { ...base, window, slots: [], reason: blocked } };
    return { body: { ...base, window, slots: freeSlots(et, start, end), reason: null } };
  },
} satisfies AreaHandlers;
