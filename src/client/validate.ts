import type { z } from 'zod';
import {
  type Bucket,
  type Endpoint,
  LIMITS,
  type Param,
  type WireCode,
  TASK_REFUSED_FIELDS,
  bucketsFor,
  idShape,
  isDay,
  isId,
  isWorkspaceSlug,
} from '../spec/index.js';
import { ValidationError } from './errors.js';

/** What a caller gives for one call: path ids by placeholder name, typed query values, a body. */
export interface CallInput {
  path?: Readonly<Record<string, string>>;
  query?: Readonly<Record<string, unknown>>;
  body?: unknown;
}

/** A call checked against the endpoint table, ready to send. */
export interface Prepared {
  endpoint: Endpoint;
  /** Path and query string, e.g. /v1/workspaces/acme/leads?limit=50. */
  target: string;
  /** The typed query values, by their canonical names (aliases folded). */
  query: Record<string, unknown>;
  body: string | undefined;
  buckets: Bucket[];
}

const SORT_PARAMS = new Set(['sort', 'sort_by', 'order_by']);
const DAY_MS = 86_400_000;

/** Insights windows (Limits): the cap in days per endpoint. */
const WINDOW_CAPS: Readonly<Record<string, number>> = {
  get_insights_summary: LIMITS.insights_window_days,
  get_campaign_insights: LIMITS.insights_window_days,
  get_daily_insights: LIMITS.daily_window_days,
};

/**
 * Check a call as far as the client can know (path id kinds, unknown query params and
 * their values, expansions, body fields, insights windows) and build its request. Throws
 * ValidationError naming the parameter, with the code the API would answer; nothing is sent.
 */
export function prepare(e: Endpoint, input: CallInput, now: Date = new Date()): Prepared {
  const path = buildPath(e, input.path ?? {});
  const { query, wire } = checkQuery(e, input.query ?? {});
  checkWindow(e, query, now);
  const body = checkBody(e, input.body);
  const qs = new URLSearchParams(wire).toString();
  return { endpoint: e, target: qs ? `${path}?${qs}` : path, query, body, buckets: bucketsFor(e, query) };
}

function buildPath(e: Endpoint, given: Readonly<Record<string, string>>): string {
  for (const name of Object.keys(given)) {
    if (!(name in e.pathIds)) {
      const known = Object.keys(e.pathIds);
      throw new ValidationError('invalid_request', e.name, `${e.name} has no path parameter '${name}'.${known.length ? ` It takes: ${known.join(', ')}.` : ''}`, name);
    }
  }
  let out = e.path;
  for (const [name, kind] of Object.entries(e.pathIds)) {
    const v = given[name];
    if (v === undefined || v === '') throw new ValidationError('invalid_request', e.name, `Path parameter '${name}' is required.`, name);
    if (kind === 'workspace') {
      if (!isWorkspaceSlug(v)) throw new ValidationError('invalid_request', e.name, `'${name}' must be a workspace slug (lowercase letters, digits, hyphens), as listed by list_workspaces.`, name);
    } else if (!isId(kind, v)) {
      throw new ValidationError('invalid_id', e.name, `'${name}' must be ${idShape(kind)}.`, name);
    }
    out = out.replace(`{${name}}`, encodeURIComponent(v));
  }
  return out;
}

function checkQuery(e: Endpoint, given: Readonly<Record<string, unknown>>) {
  const query: Record<string, unknown> = {};
  const wire: [string, string][] = [];
  for (const [rawName, raw] of Object.entries(given)) {
    if (raw === undefined || raw === null) continue;
    if (SORT_PARAMS.has(rawName)) {
      throw new ValidationError('unsupported_sort', e.name, `There is no ${rawName}: each list has one fixed sort key; use order=asc|desc.`, rawName);
    }
    const name = e.aliases?.[rawName] ?? rawName;
    const param = e.query[name];
    if (!param) {
      const known = Object.keys(e.query);
      throw new ValidationError('unsupported_filter', e.name, `Unknown query parameter '${rawName}'.${known.length ? ` Accepted: ${known.join(', ')}.` : ' This endpoint takes none.'}`, rawName);
    }
    if (name in query) throw new ValidationError('invalid_request', e.name, `'${rawName}' and its alias were both given.`, rawName);
    const value = (param.kind === 'list' || param.kind === 'ids') && typeof raw === 'string' ? raw.split(',').map((s) => s.trim()) : raw;
    const r = param.input.safeParse(value);
    if (!r.success) {
      throw new ValidationError(codeOf(param, value), e.name, `Query parameter '${rawName}': ${issueText(r.error)}.`, rawName);
    }
    query[name] = r.data;
    wire.push([rawName, param.toWire(r.data)]);
  }
  return { query, wire };
}

/** The code the service would give this value: what its own parser says, else invalid_request. */
// biome-ignore lint/suspicious/noExplicitAny: any param of the table, whatever its value type
function codeOf(param: Param<any>, value: unknown): WireCode {
  try {
    const r = param.fromWire(param.toWire(value));
    if (!r.ok) return r.code;
  } catch {
    // A value of the wrong type has no wire form: the service could only call it invalid.
  }
  return 'invalid_request';
}

function issueText(err: z.ZodError): string {
  const i = err.issues[0];
  if (!i) return 'invalid value';
  return i.path.length ? `${i.path.join('.')}: ${i.message}` : i.message;
}

/** Start of a day or date-time bound, and the end of a `to` bound (a day covers all of itself). */
function bound(v: string, end: boolean): number {
  if (isDay(v)) return Date.parse(`${v}T00:00:00Z`) + (end ? DAY_MS : 0);
  return Date.parse(v);
}

function checkWindow(e: Endpoint, query: Record<string, unknown>, now: Date): void {
  const cap = WINDOW_CAPS[e.name];
  if (cap === undefined) return;
  const from = query.from as string | undefined;
  const to = query.to as string | undefined;
  if (from === undefined) return;
  const start = bound(from, false);
  // Without `to`, the window ends now; a daily window covers today whole.
  const end = to !== undefined ? bound(to, true) : e.name === 'get_daily_insights' ? bound(now.toISOString().slice(0, 10), true) : now.getTime();
  if (end <= start) throw new ValidationError('invalid_request', e.name, `'from' must be before 'to'.`, 'from');
  const days = Math.ceil((end - start) / DAY_MS);
  if (days > cap) {
    throw new ValidationError(
      'invalid_request',
      e.name,
      `The window from ${from} to ${to ?? 'now'} covers ${days} days; ${e.name} accepts at most ${cap} days. Split it into smaller windows.`,
      'from',
    );
  }
}

function checkBody(e: Endpoint, body: unknown): string | undefined {
  if (!e.body) {
    if (body !== undefined) throw new ValidationError('invalid_request', e.name, `${e.name} takes no request body.`);
    return undefined;
  }
  const value = body === undefined ? {} : body;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new ValidationError('invalid_request', e.name, 'The request body must be a JSON object.');
  }
  if (e.name === 'create_task' || e.name === 'update_task') {
    for (const [field, why] of Object.entries(TASK_REFUSED_FIELDS)) {
      if (field in value) throw new ValidationError('invalid_request', e.name, `${why}.`, field);
    }
  }
  const r = (e.body as z.ZodType).safeParse(value);
  if (!r.success) {
    const issue = r.error.issues[0]!;
    if (issue.code === 'unrecognized_keys') {
      const at = issue.path.length ? `${issue.path.join('.')}.` : '';
      const key = `${at}${String(issue.keys[0])}`;
      throw new ValidationError('invalid_request', e.name, `Unknown body field '${key}'.`, key);
    }
    const param = issue.path.map(String).join('.') || undefined;
    const idIssue = issue.code === 'custom' && (issue as { params?: { api_code?: string } }).params?.api_code === 'invalid_id';
    throw new ValidationError(
      idIssue ? 'invalid_id' : 'invalid_request',
      e.name,
      param ? `Body field '${param}': ${issue.message}.` : `Request body: ${issue.message}.`,
      param,
    );
  }
  return JSON.stringify(value);
}
