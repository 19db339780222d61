import type { Rng } from '../rng.js';
import { memberIdOf, type Store } from '../store/store.js';
import type { EventTypeFormFieldRec, EventTypeHostRec, EventTypeRec } from '../store/types.js';
import { daysBefore, iso } from './time.js';

const BOOKING_HOST = 'https://book.replyinbox.example';

type FieldConfig = EventTypeRec['default_field_config'];
const FIELDS_STANDARD: FieldConfig = {
  first_name: { included: true, required: true },
  last_name: { included: true, required: false },
  company: { included: true, required: true },
  email: { included: true, required: true },
  phone: { included: false, required: false },
};

interface HostDef {
  user: string;
  active?: boolean;
  calendar?: boolean;
  weight?: number;
}
interface FieldDef {
  key: string;
  label: string;
  type: string;
  options?: string[];
  required?: boolean;
  active?: boolean;
}
interface EventTypeDef {
  name: string;
  slug: string;
  scheduling: 'single' | 'collective' | 'round_robin';
  duration: number;
  hosts: HostDef[];
  fields?: FieldDef[];
  public?: boolean;
  active?: boolean;
  window?: number;
  notice?: number;
  buffers?: [number, number];
  location: EventTypeRec['location'];
  tz?: string;
  fieldConfig?: Partial<FieldConfig>;
  confirm?: boolean;
  businessOnly?: boolean;
}

const QUALIFY: FieldDef[] = [
  { key: 'team_size', label: 'How big is your team?', type: 'select', options: ['1-10', '11-50', '51-200', '200+'], required: true },
  { key: 'use_case', label: 'What would you like to cover?', type: 'textarea' },
  { key: 'tools', label: 'Tools you use today', type: 'multiselect', options: ['HubSpot', 'Salesforce', 'Pipedrive', 'Spreadsheet'] },
  { key: 'consent', label: 'I agree to be contacted', type: 'checkbox', required: true },
  { key: 'referrer', label: 'Who referred you?', type: 'text', active: false },
];

/**
 * One event type per case of the slots rules: each scheduling type, an inactive one, a
 * private one, one whose hosts are all inactive and one whose only host has no calendar.
 */
const DEFS: Record<string, EventTypeDef[]> = {
  acme: [
    {
      name: 'Discovery call',
      slug: 'discovery-call',
      scheduling: 'single',
      duration: 30,
      window: 30,
      notice: 240,
      hosts: [{ user: 'usr_ben' }],
      fields: QUALIFY,
      location: { type: 'google_meet', phone: null, description: 'Google Meet link sent on booking' },
      tz: 'America/New_York',
      businessOnly: true,
    },
    {
      name: 'Team demo',
      slug: 'team-demo',
      scheduling: 'collective',
      duration: 45,
      window: 21,
      notice: 1440,
      buffers: [10, 15],
      hosts: [{ user: 'usr_ada' }, { user: 'usr_mia' }],
      fields: QUALIFY.slice(0, 2),
      location: { type: 'zoom', phone: null, description: null },
      tz: 'Europe/London',
      confirm: true,
    },
    {
      name: 'Intro with the next free rep',
      slug: 'intro',
      scheduling: 'round_robin',
      duration: 20,
      window: 14,
      notice: 60,
      hosts: [{ user: 'usr_ben', weight: 2 }, { user: 'usr_dee' }, { user: 'usr_mia', active: false }],
      fields: [QUALIFY[0] as FieldDef, QUALIFY[3] as FieldDef],
      location: { type: 'phone', phone: '+1 555 0100', description: 'We call you' },
      tz: 'UTC',
      fieldConfig: { phone: { included: true, required: true } },
    },
    {
      name: 'Legacy consult',
      slug: 'legacy-consult',
      scheduling: 'single',
      duration: 60,
      active: false,
      hosts: [{ user: 'usr_mia' }],
      location: { type: 'zoom', phone: null, description: null },
    },
    {
      name: 'Internal pipeline review',
      slug: 'pipeline-review',
      scheduling: 'collective',
      duration: 30,
      public: false,
      hosts: [{ user: 'usr_ada' }, { user: 'usr_ben' }],
      location: { type: 'google_meet', phone: null, description: null },
    },
    {
      name: "Cy's office hours",
      slug: 'office-hours',
      scheduling: 'single',
      duration: 30,
      hosts: [{ user: 'usr_cy', active: false }],
      location: { type: 'phone', phone: '+1 555 0199', description: null },
    },
    {
      name: 'Pricing deep-dive',
      slug: 'pricing',
      scheduling: 'single',
      duration: 45,
      hosts: [{ user: 'usr_raj', calendar: false }],
      fields: [QUALIFY[1] as FieldDef],
      location: { type: 'zoom', phone: null, description: null },
      tz: 'Asia/Kolkata',
    },
  ],
  globex: [
    {
      name: 'Globex intro',
      slug: 'globex-intro',
      scheduling: 'single',
      duration: 30,
      hosts: [{ user: 'usr_hal' }],
      location: { type: 'google_meet', phone: null, description: null },
      tz: 'UTC',
    },
  ],
};

/** Seeds event types with hosts, form fields, working hours and busy calendar time. */
export function seedScheduling(store: Store, rng: Rng, _opts: { leads: number }): void {
  const anchor = store.anchor;
  for (const [ws, defs] of Object.entries(DEFS)) {
    defs.forEach((d, i) => {
      const id = `evt_${rng.token(12)}`;
      const isPublic = d.public ?? true;
      const hosts: EventTypeHostRec[] = d.hosts.map((h, n) => ({
        id: `eth_${rng.token(10)}`,
        event_type_id: id,
        member_id: memberIdOf(h.user, ws),
        weight: h.weight ?? 1,
        priority: n + 1,
        is_host: true,
        active: h.active ?? true,
        calendar_connected: h.calendar ?? true,
      }));
      const form_fields: EventTypeFormFieldRec[] = (d.fields ?? []).map((f, n) => ({
        id: `etf_${rng.token(10)}`,
        event_type_id: id,
        field_key: f.key,
        label: f.label,
        type: f.type,
        options: f.options ?? [],
        required: f.required ?? false,
        order_index: n,
        active: f.active ?? true,
      }));
      const created = daysBefore(anchor, 200 - i * 10);
      const et: EventTypeRec = {
        id,
        workspace: ws,
        name: d.name,
        slug: d.slug,
        description: `<p>${d.name}: ${d.duration} minutes.</p>`,
        event_name_template: i % 2 === 0 ? '{{event_name}} with {{invitee_name}}' : null,
        duration_minutes: d.duration,
        buffer_before_minutes: d.buffers?.[0] ?? 0,
        buffer_after_minutes: d.buffers?.[1] ?? 0,
        scheduling_type: d.scheduling,
        public: isPublic,
        public_url: isPublic ? `${BOOKING_HOST}/${ws}/${d.slug}` : null,
        public_booking_window_days: d.window ?? 60,
        minimum_notice_minutes: d.notice ?? 120,
        business_emails_only: d.businessOnly ?? false,
        redirect_url: i === 0 ? `https://${ws}.example/thanks` : null,
        workspace_wide: d.scheduling !== 'single',
        active: d.active ?? true,
        requires_confirmation: d.confirm ?? false,
        location: d.location,
        order_index: i,
        use_event_type_availability: i % 3 !== 2,
        default_field_config: { ...FIELDS_STANDARD, ...d.fieldConfig },
        booking_provider: 'replyinbox',
        created_by_id: ws === 'acme' ? 'usr_ada' : 'usr_gus',
        created_at: created,
        updated_at: daysBefore(anchor, 20 - i),
        hosts,
        form_fields,
        availability: { timezone: d.tz ?? 'UTC', days: [1, 2, 3, 4, 5], start: '09:00', end: '17:00' },
        busy: busyAround(anchor, rng),
      };
      store.eventTypes.add(et);
    });
  }
}

/** A few hours of calendar time already taken in the days after the anchor. */
function busyAround(anchor: Date, rng: Rng): { start: string; end: string }[] {
  const out: { start: string; end: string }[] = [];
  const base = Date.UTC(anchor.getUTCFullYear(), anchor.getUTCMonth(), anchor.getUTCDate());
  for (let d = 0; d < 10; d++) {
    if (!rng.chance(0.6)) continue;
    const start = base + d * 86_400_000 + rng.int(8, 18) * 3_600_000;
    out.push({ start: iso(start), end: iso(start + rng.int(1, 4) * 1_800_000) });
  }
  return out;
}
