import { z } from 'zod';
import { callOwn, isFields, type ToolContext, oneLines, isOutsideField, type ToolOutput } from '../../src/mcp/tool-kit.js';
import { LEAD_FACTS } from './compact.js';
import { runProjected } from './project.js';

type Row = Record<string, unknown>;

/** What the default get_lead asks the API to embed: three, the most one request may ask for, so the card costs one read. */
export const CARD_EXPAND = ['assignees', 'open_tasks', 'notes'] as const;

/** The most bytes the card takes in either form. */
export const CARD_BYTES = 1_200;

/** The longest each outsider field of the card may be, so the card stays within ~1,200 bytes in each form. */
const CLIP: Record<string, number> = { first_name: 40, last_name: 40, title: 60, company_name: 60, subject: 80, body_preview: 200 };

/** The contact, then our facts as a list row gives them (the counts replace has_open_task), the campaign and the latest reply. */
const CARD_FIELDS = [
  'id',
  'email',
  'first_name',
  'last_name',
  'title',
  'company_name',
  ...LEAD_FACTS.filter((k) => k !== 'id' && k !== 'has_open_task'),
  'campaign_id',
  'campaign_name',
  'last_message_direction',
  'subject',
  'body_preview',
];

/** The fields the card adds to a lead's compact schema. */
export const CARD_EXTRA = {
  assignee_names: z.array(z.string()).optional().describe('get_lead: the names of assignee_ids, in order.'),
  open_task_count: z.number().int().optional().describe("get_lead: the lead's open tasks, everyone's (list_tasks lead_id)."),
  note_count: z.number().int().optional().describe("get_lead: the lead's team notes (list_notes lead_id)."),
};

const clip = (v: unknown, n: number | undefined) => (typeof v === 'string' && n !== undefined && v.length > n ? `${v.slice(0, n - 1)}…` : v);
const count = (v: unknown) => (Array.isArray(v) ? v.length : 0);

/**
 * A lead as one card: the contact (email, names, title, company: fenced when shown), status, state,
 * campaign, who is assigned, the latest reply (subject and the opening of its preview) and
 * how many open tasks and notes it has. Values that say nothing (null, false, empty) are left out.
 */
export function leadCard(l: Row): Row {
  const out: Row = {};
  for (const k of CARD_FIELDS) {
    const v = l[k];
    if (v === null || v === undefined || v === false || v === '') continue;
    out[k] = clip(v, CLIP[k]);
  }
  const assignees = Array.isArray(l.assignees) ? l.assignees.filter(isFields) : [];
  const names = assignees.map((a) => (typeof a.name === 'string' && a.name ? a.name : String(a.id)));
  if (names.length) out.assignee_names = names;
  out.open_task_count = count(l.open_tasks);
  out.note_count = count(l.notes);
  if (typeof l.sdr_notes === 'string') out.sdr_notes = l.sdr_notes;
  return typeof l.sdr_notes === 'string' ? out : withinCard(out);
}

/** The bytes a fence adds around one value (both tags) and the standing note structuredContent carries: what the card's JSON grows by. */
const FENCE_BYTES = 2 * '<untrusted-000000>'.length + 1;
const NOTE_BYTES = 100;

/** The card with its latest reply shortened until its fenced JSON fits CARD_BYTES (many assignees, long names). */
function withinCard(card: Row): Row {
  const size = (c: Row) =>
    Buffer.byteLength(JSON.stringify(c)) +
    NOTE_BYTES +
    FENCE_BYTES * Object.entries(c).filter(([k, v]) => typeof v === 'string' && isOutsideField(k, v, 'lead')).length;
  let out = card;
  while (size(out) > CARD_BYTES && typeof out.body_preview === 'string' && out.body_preview.length > 40) {
    out = { ...out, body_preview: clip(out.body_preview, Math.max(40, out.body_preview.length - (size(out) - CARD_BYTES) - 1)) };
  }
  return out;
}

/**
 * get_lead: by default (no view=full, fields or expand), the card, from one request that embeds the
 * assignees, open tasks and notes; otherwise the compact view, the fields or the whole record as asked.
 */
export async function runLeadCard(ctx: ToolContext, args: Row): Promise<ToolOutput> {
  if (args.view === 'full' || args.fields !== undefined || args.expand !== undefined) return runProjected(ctx, args, 'lead');
  const r = await callOwn(ctx, { ...args, expand: [...CARD_EXPAND] });
  return { structured: leadCard(r.data), kind: 'lead', render: (s, fence) => oneLines(s, fence, 'lead') };
}
