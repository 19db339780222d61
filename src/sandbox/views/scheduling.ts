import { iso } from '../seed/time.js';
import type { Store } from '../store/store.js';
import type { EventTypeFormFieldRec, EventTypeHostRec, EventTypeRec } from '../store/types.js';
import { zoneOffset } from '../../api/zone.js';

const FIELD_KEYS = ['first_name', 'last_name', 'company', 'email', 'phone'] as const;

/** Every key present even if a record lacks one: the spec says the map is always concrete. */
function fieldConfig(c: Partial<EventTypeRec['default_field_config']>) {
  return Object.fromEntries(FIELD_KEYS.map((k) => [k, { included: c[k]?.included ?? k !== 'phone', required: c[k]?.required ?? k === 'email' }]));
}

export function hostView(h: EventTypeHostRec) {
  return {
    object: 'event_type_host' as const,
    id: h.id,
    event_type_id: h.event_type_id,
    member_id: h.member_id,
    weight: h.weight,
    priority: h.priority,
    is_host: h.is_host,
    active: h.active,
  };
}

export function formFieldView(f: EventTypeFormFieldRec) {
  return { object: 'event_type_form_field' as const, ...f, options: [...f.options] };
}

/**
 * event_type resource. Working hours, busy time and calendar links stay inside the
 * sandbox; the single read adds hosts[] and form_fields[].
 */
export function eventTypeView(et: EventTypeRec, opts: { detail?: boolean } = {}) {
  const { hosts, form_fields, availability: _a, busy: _b, default_field_config, location, ...rest } = et;
  return {
    object: 'event_type' as const,
    ...rest,
    location: { ...location },
    default_field_config: fieldConfig(default_field_config),
    ...(opts.detail ? { hosts: hosts.map(hostView), form_fields: form_fields.map(formFieldView) } : {}),
  };
}

/** A host counts when its row is active and the person behind it is still active. */
export function activeHosts(store: Store, et: EventTypeRec): EventTypeHostRec[] {
  return et.hosts.filter((h) => {
    if (!h.is_host || !h.active) return false;
    const m = store.memberByMemberId(et.workspace, h.member_id);
    return m !== undefined && store.users.get(m.user_id)?.active === true;
  });
}

/** The instant at which a zone's wall clock shows this day and HH:MM (DST-safe to one hop). */
function wallClockToInstant(dayUtc: number, hhmm: string, timeZone: string): number {
  const [h, m] = hhmm.split(':').map(Number) as [number, number];
  const guess = dayUtc + (h * 60 + m) * 60_000;
  const first = guess - zoneOffset(guess, timeZone);
  return guess - zoneOffset(first, timeZone);
}

/** Weekday (0 = Sunday) of an instant in a zone. */
function weekdayIn(at: number, timeZone: string): number {
  return new Date(at + zoneOffset(at, timeZone)).getUTCDay();
}

/**
 * Free slots of an event type in [from, to): inside working hours, stepped by the
 * duration, and clear of busy time widened by the buffers. Slots carry no host identity.
 */
export function freeSlots(et: EventTypeRec, from: number, to: number): { object: 'slot'; start: string; end: string }[] {
  const { timezone, days, start, end } = et.availability;
  const dur = et.duration_minutes * 60_000;
  const before = et.buffer_before_minutes * 60_000;
  const after = et.buffer_after_minutes * 60_000;
  const busy = et.busy.map((b) => [Date.parse(b.start), Date.parse(b.end)] as const).filter(([bs, be]) => be > from - before && bs < to + after);
  const out: { object: 'slot'; start: string; end: string }[] = [];
  const firstDay = Date.UTC(new Date(from).getUTCFullYear(), new Date(from).getUTCMonth(), new Date(from).getUTCDate()) - 86_400_000;
  for (let d = firstDay; d < to + 86_400_000; d += 86_400_000) {
    const open = wallClockToInstant(d, start, timezone);
    const close = wallClockToInstant(d, end, timezone);
    if (!days.includes(weekdayIn(open, timezone))) continue;
    for (let s = open; s + dur <= close; s += dur) {
      if (s < from || s + dur > to) continue;
      const clash = busy.some(([bs, be]) => s - before < be && s + dur + after > bs);
      if (!clash) out.push({ object: 'slot', start: iso(s), end: iso(s + dur) });
    }
  }
  return out;
}
