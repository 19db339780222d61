import type { z } from 'zod';
import { type Checked, checkBody, queryName, resolveWindow } from '../api/checks.js';
import { type Endpoint, bucketsFor } from '../api/endpoints.js';
import type { Bucket } from '../api/enums.js';
import { idShape, isId, isWorkspaceSlug } from '../api/ids.js';
import type { Param, WireCode } from '../api/params.js';
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

/**
 * Check a call as far as the client can know (path id kinds, unknown query params and
 * their values, expansions, body fields, date windows) and build its request. Throws
 * ValidationError naming the parameter, with the code the API would answer; nothing is sent.
 */
export function prepare(e: Endpoint, input: CallInput, now: Date = new Date()): Prepared {
  const path = buildPath(e, input.path ?? {});
  const { query, wire } = checkQuery(e, input.query ?? {});
  accepted(e, resolveWindow(e, query, now.getTime()));
  accepted(e, checkBody(e, input.body));
  // The caller's own object is sent, so what the service sees is what was checked.
  const body = e.body ? JSON.stringify(input.body ?? {}) : undefined;
  const qs = new URLSearchParams(wire).toString();
  return { endpoint: e, target: qs ? `${path}?${qs}` : path, query, body, buckets: bucketsFor(e, query) };
}

/** A shared check's answer: its value, or the refusal thrown as a ValidationError. */
function accepted<T>(e: Endpoint, r: Checked<T>): T {
  if (!r.ok) throw new ValidationError(r.code, e.name, r.message, r.param);
  return r.value;
}

function buildPath(e: Endpoint, given: Readonly<Record<string, string>>): string {
  for (const name of Object.keys(given)) {
    if (!(name in e.pathIds)) {
      const known = Object.keys(e.pathIds);
      throw new ValidationError(
        'invalid_request',
        e.name,
        `${e.name} has no path parameter '${name}'.${known.length ? ` It takes: ${known.join(', ')}.` : ''}`,
        name,
      );
    }
  }
  let out = e.path;
  for (const [name, kind] of Object.entries(e.pathIds)) {
    const v = given[name];
    if (v === undefined || v === '') throw new ValidationError('invalid_request', e.name, `Path parameter '${name}' is required.`, name);
    if (kind === 'workspace') {
      if (!isWorkspaceSlug(v))
        throw new ValidationError(
          'invalid_request',
          e.name,
          `'${name}' must be a workspace slug (lowercase letters, digits, hyphens), as listed by list_workspaces.`,
          name,
        );
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
    const name = accepted(e, queryName(e, rawName, query));
    const param = e.query[name]!;
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
