import type { z } from 'zod';
import type { Endpoint, WindowRule } from './endpoints.js';
import { isDay } from './dates.js';
import type { WireCode } from './params.js';

/**
 * The checks the client makes before sending and the sandbox makes on arrival, written
 * once: query names, bodies and date windows. Each answers with the code and message the
 * service gives; the client throws it as a ValidationError, the sandbox as its envelope.
 */
export interface Refusal {
  readonly code: WireCode;
  readonly message: string;
  readonly param?: string;
}
export type Checked<T> = { ok: true; value: T } | ({ ok: false } & Refusal);

const refuse = (code: WireCode, message: string, param?: string): { ok: false } & Refusal => ({
  ok: false,
  code,
  message,
  ...(param !== undefined ? { param } : {}),
});

const SORT_PARAMS = new Set(['sort', 'sort_by', 'order_by']);

/**
 * The canonical name of one query parameter as given (aliases folded), or why it is refused:
 * a sort request, an unknown name, or a name whose alias was given too (`seen` holds the names so far).
 */
export function queryName(e: Endpoint, rawName: string, seen: Readonly<Record<string, unknown>>): Checked<string> {
  if (SORT_PARAMS.has(rawName)) return refuse('unsupported_sort', `There is no ${rawName}: each list has one fixed sort key; use order=asc|desc.`, rawName);
  const name = e.aliases?.[rawName] ?? rawName;
  if (!e.query[name]) {
    const known = Object.keys(e.query);
    return refuse(
      'unsupported_filter',
      `Unknown query parameter '${rawName}'.${known.length ? ` Accepted: ${known.join(', ')}.` : ' This endpoint takes none.'}`,
      rawName,
    );
  }
  if (name in seen) return refuse('invalid_request', `'${rawName}' and its alias were both given.`, rawName);
  return { ok: true, value: name };
}

/** A request body against the endpoint's strict schema: unknown fields refused (general rule 5), the first problem named. */
export function checkBody(e: Endpoint, raw: unknown): Checked<unknown> {
  if (!e.body) return raw === undefined ? { ok: true, value: undefined } : refuse('invalid_request', `${e.name} takes no request body.`);
  const value = raw === undefined ? {} : raw;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return refuse('invalid_request', 'The request body must be a JSON object.');
  for (const [field, why] of Object.entries(e.refusedFields ?? {})) {
    if (field in value) return refuse('invalid_request', `${why}.`, field);
  }
  const r = (e.body as z.ZodType).safeParse(value);
  if (r.success) return { ok: true, value: r.data };
  const issue = r.error.issues[0]!;
  if (issue.code === 'unrecognized_keys') {
    const at = issue.path.length ? `${issue.path.join('.')}.` : '';
    const key = `${at}${String(issue.keys[0])}`;
    return refuse('invalid_request', `Unknown body field '${key}'.`, key);
  }
  const param = issue.path.map(String).join('.') || undefined;
  // An id inside a body carries api_code so the answer is invalid_id, as for any malformed id.
  const idIssue = issue.code === 'custom' && (issue as { params?: { api_code?: string } }).params?.api_code === 'invalid_id';
  return refuse(idIssue ? 'invalid_id' : 'invalid_request', param ? `Body field '${param}': ${issue.message}.` : `Request body: ${issue.message}.`, param);
}

/** The window searched: half-open instants, from <= t < to. */
export interface SearchWindow {
  readonly fromMs: number;
  readonly toMs: number;
}

export const DAY_MS = 86_400_000;

const startOf = (v: string) => Date.parse(isDay(v) ? `${v}T00:00:00Z` : v);
/** A `to` given as a day includes that whole day. */
const endOf = (v: string) => (isDay(v) ? Date.parse(`${v}T00:00:00Z`) + DAY_MS : Date.parse(v));
/** The end of the window "until now": the whole of today for days, this instant otherwise. */
const nowEnd = (rule: WindowRule, nowMs: number) => (rule.unit === 'day' ? Math.floor(nowMs / DAY_MS) * DAY_MS + DAY_MS : nowMs);

/** The window an endpoint searches for this query, or why it is refused. Null when the endpoint has no window. */
export function resolveWindow(e: Endpoint, q: { from?: unknown; to?: unknown }, nowMs: number): Checked<SearchWindow | null> {
  const rule = e.window;
  if (!rule) return { ok: true, value: null };
  const from = typeof q.from === 'string' ? q.from : undefined;
  const to = typeof q.to === 'string' ? q.to : undefined;
  let fromMs: number;
  let toMs: number;
  if (rule.runs === 'back') {
    toMs = to !== undefined ? endOf(to) : nowEnd(rule, nowMs);
    fromMs = from !== undefined ? startOf(from) : toMs - rule.defaultDays * DAY_MS;
  } else {
    fromMs = from !== undefined ? startOf(from) : nowMs;
    toMs = to !== undefined ? endOf(to) : fromMs + rule.defaultDays * DAY_MS;
  }
  if (toMs <= fromMs) return refuse('invalid_request', "The window is empty: 'to' must be later than 'from'.", rule.blame);
  const days = (toMs - fromMs) / DAY_MS;
  if (days > rule.maxDays) {
    if (rule.over === 'clamp') return { ok: true, value: { fromMs, toMs: fromMs + rule.maxDays * DAY_MS } };
    return refuse(
      'invalid_request',
      `The window from ${from ?? 'its default'} to ${to ?? 'now'} spans ${Math.ceil(days)} days; ${e.name} accepts at most ${rule.maxDays}. Split it into smaller windows.`,
      rule.blame,
    );
  }
  return { ok: true, value: { fromMs, toMs } };
}
