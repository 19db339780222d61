import { Fence, UNTRUSTED_NOTE } from './fence.js';

/** Fields whose text comes from outside the company, wherever they appear (an address can carry text too). */
const OUTSIDE_TEXT = new Set([
  'first_name', 'last_name', 'company_name', 'subject', 'body_preview', 'body', 'body_text', 'body_html',
  'from_name', 'from_email', 'to_email', 'email', 'notes', 'internal_notes', 'filename', 'phone',
]);
/** Containers whose every string, at any depth, is outside text (a booking form's answers, tracking tags). */
const OUTSIDE_CONTAINERS = new Set(['custom_fields', 'utm_params']);
/** Where `name` is a person from outside rather than one of ours. */
const OUTSIDE_NAME_PARENTS = new Set(['invitee', 'guests', 'lead_snapshot']);

/** Leave out nulls, empty arrays and empty objects: they cost tokens and say nothing. */
export function dropEmpty(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(dropEmpty);
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      if (v === null || v === undefined) continue;
      const d = dropEmpty(v);
      if (Array.isArray(d) && d.length === 0) continue;
      out[k] = d;
    }
    return out;
  }
  return value;
}

interface Where {
  /** The field this value sits in (array items inherit their array's field). */
  key: string;
  /** The field of the object that holds this value. */
  parent: string;
  /** The `object` kind of the nearest enclosing record. */
  kind: string;
  /** Inside a container of outside text. */
  inside: boolean;
}

/** A copy with every outside string fenced, for the text a model reads. Counts what it fenced. */
export function fenceDeep(value: unknown, fence: Fence, state = { fenced: 0 }, at: Where = { key: '', parent: '', kind: '', inside: false }): unknown {
  if (typeof value === 'string') {
    const outside =
      at.inside ||
      OUTSIDE_TEXT.has(at.key) ||
      (at.key === 'name' && (OUTSIDE_NAME_PARENTS.has(at.parent) || at.kind === 'meeting')) ||
      (at.key === 'title' && at.kind === 'lead');
    if (!outside || value === '') return value;
    state.fenced++;
    return fence.inline(value);
  }
  if (Array.isArray(value)) return value.map((v) => fenceDeep(v, fence, state, at));
  if (value && typeof value === 'object') {
    const obj = value as Record<string, unknown>;
    const kind = typeof obj.object === 'string' ? obj.object : at.kind;
    const inside = at.inside || OUTSIDE_CONTAINERS.has(at.key);
    const out: Record<string, unknown> = {};
    for (const [name, v] of Object.entries(obj)) out[name] = fenceDeep(v, fence, state, { key: name, parent: at.key, kind, inside });
    return out;
  }
  return value;
}

/** Fractions (rates, averages) to three decimals in the text: sixteen digits are noise to a reader. structuredContent keeps them whole. */
function rounded(_key: string, value: unknown): unknown {
  return typeof value === 'number' && !Number.isInteger(value) ? Math.round(value * 1000) / 1000 : value;
}

/**
 * The text copy of a structured result: compact JSON without empty fields, outside text
 * fenced, and the standing note when anything was fenced.
 */
export function textOf(structured: unknown, fence: Fence = new Fence()): string {
  const state = { fenced: 0 };
  const fenced = fenceDeep(dropEmpty(structured), fence, state);
  const json = JSON.stringify(fenced, rounded);
  return state.fenced > 0 ? `${UNTRUSTED_NOTE}\n${json}` : json;
}
