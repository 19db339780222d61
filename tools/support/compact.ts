import { z } from 'zod';
import { isFields, resourceOf } from '../../src/mcp/tool-kit.js';

type Row = Record<string, unknown>;
const s = (v: unknown) => (typeof v === 'string' && v !== '' ? v : undefined);
/** The longest preview a compact row carries; the whole of it is one fields or view=full away. */
const PREVIEW_CHARS = 56;

/** Keep the named fields that say something: no nulls, no false flags, no empty lists. */
function facts(r: Row, keys: readonly string[]): Row {
  const out: Row = {};
  for (const k of keys) {
    const v = r[k];
    if (v === null || v === undefined || v === false || v === '' || (Array.isArray(v) && v.length === 0)) continue;
    out[k] = v;
  }
  return out;
}
const join = (parts: unknown[], sep: string) => parts.map(s).filter(Boolean).join(sep) || undefined;
const clip = (text: unknown, n: number) => {
  const t = s(text);
  return t && t.length > n ? `${t.slice(0, n - 1)}…` : t;
};

const WHO = z.string().optional();

/** Our facts about a lead that a triage decision needs. */
export const LEAD_FACTS = [
  'id',
  'status',
  'classification',
  'state',
  'unread',
  'priority',
  'responded',
  'last_message_at',
  'assignee_ids',
  'has_open_task',
  'next_due_at',
  'meeting_outcome',
] as const;
/** Every field a compact lead may carry; everything else is one `fields` or `view: "full"` away. */
export const LEAD_TRIAGE_FIELDS = [...LEAD_FACTS, 'latest_reply'] as const;

/** Who wrote the latest reply and how it opens, in one field: "Ravi Costa (Northwind Traders): Out of office…". */
function latestReply(l: Row): string | undefined {
  const who = join([l.first_name, l.last_name], ' ');
  const org = s(l.company_name);
  const by = who && org ? `${who} (${org})` : (who ?? org);
  const said = clip(l.body_preview, PREVIEW_CHARS);
  return by && said ? `${by}: ${said}` : (by ?? said);
}

/** The view argument of reads that have a compact view. */
export const VIEW = { view: z.enum(['compact', 'full']).optional().describe('Default compact.') };

/**
 * Compact views, one per kind: the fields a decision needs, labelled, with what an outsider
 * wrote gathered in few fields. False flags and empty values are left out (absent means
 * false or none). view=full gives the API's record.
 */
export const COMPACT = {
  lead: {
    noun: 'lead',
    extra: {
      latest_reply: z
        .string()
        .optional()
        .describe(`Compact view: the lead's name (company): and the opening of their latest reply, at most ${PREVIEW_CHARS} characters (outsider text).`),
    },
    project: (l: Row): Row => {
      // A due day says there is an open task: the flag would repeat it.
      const out = facts(l, l.next_due_at ? LEAD_FACTS.filter((k) => k !== 'has_open_task') : LEAD_FACTS);
      const latest = latestReply(l);
      if (latest) out.latest_reply = latest;
      return out;
    },
  },
  meeting: {
    noun: 'meeting',
    extra: {
      who: WHO.describe("Compact view: the invitee's name and company as they wrote them (outsider text)."),
      guest_count: z.number().int().optional().describe('Compact view: how many guests; view=full lists them.'),
    },
    project: (m: Row): Row => {
      const inv = isFields(m.invitee) ? m.invitee : {};
      const name = s(inv.name) ?? s(m.name);
      const email = s(inv.email) ?? s(m.email);
      return {
        ...facts(m, ['id', 'lead_id', 'event_type_id', 'source', 'starts_at', 'ends_at', 'timezone', 'host_id', 'outcome', 'confirmation_status', 'locked']),
        ...(name || s(m.company_name) ? { who: join([name, m.company_name], ', ') } : {}),
        ...(email ? { email } : {}),
        ...(Array.isArray(m.guests) && m.guests.length ? { guest_count: m.guests.length } : {}),
      };
    },
  },
  event_type: {
    noun: 'event type',
    extra: {},
    project: (e: Row): Row =>
      facts(e, ['id', 'name', 'slug', 'duration_minutes', 'scheduling_type', 'active', 'public', 'requires_confirmation', 'public_url']),
  },
  template: {
    noun: 'template',
    extra: {},
    // As for every kind, an empty value is left out: no ai_variables means none to write before render_template.
    // Visibility and folder choose no reply: both are filters, and view=full shows them.
    project: (t: Row): Row => facts(t, ['id', 'name', 'is_html', 'subject', 'ai_variables']),
  },
} as const;
export type CompactKind = keyof typeof COMPACT;

/**
 * The schema of a record as these tools send it: the compact view (the default), chosen
 * fields or the whole record, so every field is optional but id; the compact view's own
 * fields are described.
 */
export function viewOutput(kind: CompactKind) {
  return (resourceOf(kind) as z.ZodObject).partial().extend({ id: z.string(), ...COMPACT[kind].extra });
}
