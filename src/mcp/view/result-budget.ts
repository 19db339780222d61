import { ToolError } from '../errors.js';
import { type Fence, UNTRUSTED_MARK } from './fence.js';
import { type FenceState, dropEmpty, fenceDeep, textOf } from './shape.js';
import type { ToolOutput } from './output.js';

/**
 * The default budget of one tool result or resource read: 24 KiB (24,576 bytes) of text,
 * and as much for the JSON of structuredContent. About 6,000 tokens: a page a model can
 * read in one turn without crowding out the work.
 */
export const DEFAULT_MAX_RESULT_BYTES = 24_576;

/** Bytes kept free for the line that says what was left out and how to read it. */
const NOTE_ROOM = 700;

type Row = Record<string, unknown>;

/** Both forms of a result, as the model reads them. */
export interface Presented {
  text: string;
  structured: Row;
}

export const byteLength = (s: string) => Buffer.byteLength(s, 'utf8');
const sizeOf = (p: Presented, textOnly = false) => (textOnly ? byteLength(p.text) : Math.max(byteLength(p.text), byteLength(JSON.stringify(p.structured))));
/** A UTF-16 unit is at most three UTF-8 bytes, so a string that short fits without counting them. */
export const within = (s: string, limit: number) => s.length * 3 <= limit || byteLength(s) <= limit;
/** Whether both forms (the text alone for a resource) fit in `limit` bytes; the structured form is serialized once. */
const fitsIn = (p: Presented, limit: number, textOnly = false) => within(p.text, limit) && (textOnly || within(JSON.stringify(p.structured), limit));

/** A result over the budget with no list to cut (or one item over it alone): the call must ask for less. */
export function resultTooLarge(tool: string, bytes: number, budget: number): ToolError {
  return new ToolError(
    'result_too_large',
    tool,
    `The result is ${bytes} bytes, over this server's result budget of ${budget} bytes (--max-result-bytes), with no list to cut at an item.`,
    {
      next_step: 'Ask for less in one call: the compact view (no view or fields), fewer fields, a smaller limit or max_items, or fewer expansions.',
    },
  );
}

/** Structured data with outsider text fenced (with the standing note when any was), and the text. */
export function present(out: ToolOutput, structured: Row, fence: Fence, own?: ReadonlySet<string>, suffix = ''): Presented {
  const state: FenceState = { fenced: 0, own };
  // The text leaves out nulls and empties; so does structuredContent, so both forms carry the same fields.
  const keep = out.keep ? new Set(out.keep) : undefined;
  const shown = dropEmpty(structured, keep) as Row;
  const fenced = fenceDeep(shown, fence, state, { key: '', parent: '', kind: out.kind ?? '', inside: false }) as Row;
  const text = out.render
    ? out.render(structured, fence, own)
    : out.text !== undefined && structured === out.structured
      ? out.text
      : textOf(structured, fence, own, keep);
  return { text: suffix ? `${text}\n${suffix}` : text, structured: state.fenced > 0 ? { untrusted: UNTRUSTED_MARK, ...fenced } : fenced };
}

export interface FitOptions {
  budget: number;
  fence: Fence;
  own?: ReadonlySet<string>;
  /** A line after the text when nothing is cut (a multi-page read's summary). */
  suffix?: string;
  /** The tool, for the line on how to read the rest. */
  tool: string;
  /**
   * The arguments that read what was left out, after the first `shown` items were kept;
   * null when no exact continuation exists.
   */
  rest(shown: number, total: number): Promise<Row | null>;
  /** Only the text is read (a resource): structuredContent does not count. */
  textOnly?: boolean;
}

/**
 * Fit a result to the byte budget, in both forms: whole if it fits, else cut at an item
 * (a record, a message) so no fence is ever split, saying how many were left out and the
 * exact arguments that read them.
 */
export async function fitResult(out: ToolOutput, o: FitOptions): Promise<Presented> {
  const size = (p: Presented) => sizeOf(p, o.textOnly);
  const whole = present(out, out.structured, o.fence, o.own, o.suffix);
  if (fitsIn(whole, o.budget, o.textOnly)) return whole;
  const key = out.items?.key ?? 'data';
  const listed = out.structured[key];
  if (!Array.isArray(listed) || listed.length === 0) return shortenedWhole(out, o, size(whole));
  // An item too long to share a page (a 30,000-character name) has its long fields shortened rather than giving up the page.
  const perItem = Math.floor((o.budget - NOTE_ROOM) / 3);
  let shortenedItems = 0;
  const list = listed.map((item) => {
    if (within(JSON.stringify(item), perItem)) return item;
    shortenedItems++;
    return shortenToFit(item, (v) => within(JSON.stringify(v), perItem)) ?? item;
  });
  const tail = out.items?.keep === 'tail';
  const cutOf = out.items?.cut;
  const cut = (k: number): Row => (cutOf ? cutOf(out.structured, k) : { ...out.structured, [key]: tail ? list.slice(list.length - k) : list.slice(0, k) });
  const fits = (k: number) => fitsIn(present(out, cut(k), o.fence, o.own), o.budget - NOTE_ROOM, o.textOnly);
  if (fits(list.length)) return shortenedNote(present(out, cut(list.length), o.fence, o.own, o.suffix), shortenedItems);
  // The largest count that fits: sizes grow with the count, so a binary search finds it.
  let lo = 0;
  let hi = list.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (fits(mid)) lo = mid;
    else hi = mid - 1;
  }
  if (lo === 0) throw resultTooLarge(o.tool, size(whole), o.budget);
  const leftOut = list.length - lo;
  const rest = await o.rest(lo, list.length);
  const cursor = typeof rest?.cursor === 'string' ? rest.cursor : null;
  const paged = key === 'data' && 'next_cursor' in out.structured;
  const { shown, same } = boundedRest(rest);
  const structured: Row = {
    ...cut(lo),
    // A list's own continuation now starts at the first item left out (or is unknown).
    ...(paged ? { has_more: true, next_cursor: cursor } : {}),
    left_out: {
      count: leftOut,
      budget_bytes: o.budget,
      ...(shown ? { fetch_rest: shown } : {}),
      ...(same.length ? { same_as_this_call: same } : {}),
    },
  };
  const how = shown
    ? `to read them, call ${o.tool} with ${JSON.stringify(shown)}${same.length ? ` and ${same.join(', ')} as in this call` : ''}`
    : `to read them, ask for less per call (a narrower view or fields, a smaller limit)`;
  const line = `[${leftOut} of ${list.length} ${key === 'messages' ? 'messages' : 'items'} left out to keep this result within ${o.budget} bytes; ${how}.]`;
  return shortenedNote(present(out, structured, o.fence, o.own, line), shortenedItems);
}

/** The longest a value's strings may stay, tried in turn until the value fits. */
const SHORTEN_TO = [4_000, 1_000, 250, 60];

/** A copy with every string longer than `max` characters cut to it, marked with `…`. */
function shortenStrings(value: unknown, max: number): unknown {
  if (typeof value === 'string') return value.length > max ? `${value.slice(0, max - 1)}…` : value;
  if (Array.isArray(value)) return value.map((v) => shortenStrings(v, max));
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, shortenStrings(v, max)]));
  return value;
}

/** The value with its long strings shortened just enough to pass `fits`, or null when even the shortest does not. */
export function shortenToFit<T>(value: T, fits: (v: T) => boolean): T | null {
  for (const max of SHORTEN_TO) {
    const v = shortenStrings(value, max) as T;
    if (fits(v)) return v;
  }
  return null;
}

/** A single record over the budget: its long fields shortened, or refused when that is not enough. */
function shortenedWhole(out: ToolOutput, o: FitOptions, bytes: number): Presented {
  const fitted = shortenToFit(out.structured, (v) => fitsIn(present(out, v, o.fence, o.own), o.budget - NOTE_ROOM, o.textOnly));
  if (!fitted) throw resultTooLarge(o.tool, bytes, o.budget);
  return shortenedNote(present(out, fitted, o.fence, o.own, o.suffix), 1);
}

/** Say, in both forms, that long fields were shortened: the `…` alone could pass for the writer's own. */
function shortenedNote(p: Presented, items: number): Presented {
  if (items === 0) return p;
  const line = `[${items} item${items === 1 ? '' : 's'} had long text fields shortened (ending in …) to keep this result within the budget.]`;
  return { text: `${p.text}\n${line}`, structured: { ...p.structured, shortened: { items } } };
}

/** The most bytes of arguments a continuation repeats; longer values are named as "as in this call" instead. */
const REST_ROOM = 400;

/**
 * A continuation's arguments, kept short enough for the line that names them: when they are
 * too long (a filter of 1,000 ids), the long ones are named rather than repeated.
 */
function boundedRest(rest: Row | null): { shown: Row | null; same: string[] } {
  if (!rest || byteLength(JSON.stringify(rest)) <= REST_ROOM) return { shown: rest, same: [] };
  const shown: Row = {};
  const same: string[] = [];
  for (const [k, v] of Object.entries(rest)) {
    if (k !== 'cursor' && byteLength(JSON.stringify(v) ?? '') > REST_ROOM / 8) same.push(k);
    else shown[k] = v;
  }
  return { shown, same };
}

/**
 * A text with no item to cut at (the playbook), cut at a line within the budget, with the
 * last line saying how much was shown.
 */
export function cutToBudget(body: string, budget: number, what: string): string {
  const bytes = byteLength(body);
  if (bytes <= budget) return body;
  const room = budget - NOTE_ROOM;
  let head = Buffer.from(body, 'utf8')
    .subarray(0, room)
    .toString('utf8')
    .replace(/\uFFFD$/, '');
  const lastBreak = head.lastIndexOf('\n');
  if (lastBreak > room / 2) head = head.slice(0, lastBreak);
  return `${head}\n\n[The ${what} is ${bytes} bytes: the first ${byteLength(head)} are shown, within this server's result budget of ${budget} bytes (--max-result-bytes).]\n`;
}

/** A resource body that has no list to cut must fit whole, or the read is refused with the reason. */
export function withinBudget(body: string, budget: number, what: string): string {
  const bytes = byteLength(body);
  if (bytes > budget) throw resultTooLarge(what, bytes, budget);
  return body;
}
