import type { z } from 'zod';
import { type Endpoint, TASK_REFUSED_FIELDS, idShape, isId, isWorkspaceSlug } from '../spec/index.js';
import { fail } from './errors.js';

const SORT_PARAMS = new Set(['sort', 'sort_by', 'order_by']);

/** General rule 5 and the endpoint's params: unknown → unsupported_filter naming it. */
export function parseQuery(e: Endpoint, search: URLSearchParams): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const seen = new Set<string>();
  for (const [rawName, raw] of search) {
    if (seen.has(rawName)) fail('invalid_request', `Query parameter '${rawName}' is given more than once.`, { param: rawName });
    seen.add(rawName);
    if (SORT_PARAMS.has(rawName)) fail('unsupported_sort', `There is no ${rawName}: each list has one fixed sort key; use order=asc|desc.`, { param: rawName });
    const name = e.aliases?.[rawName] ?? rawName;
    const param = e.query[name];
    if (!param) {
      const known = Object.keys(e.query);
      fail('unsupported_filter', `Unknown query parameter '${rawName}'.${known.length ? ` Accepted: ${known.join(', ')}.` : ' This endpoint takes none.'}`, { param: rawName });
    }
    if (name in out) fail('invalid_request', `'${rawName}' and its alias were both given.`, { param: rawName });
    const r = param.fromWire(raw);
    if (!r.ok) fail(r.code, `Query parameter '${rawName}' ${r.message}.`, { param: rawName });
    out[name] = r.value;
  }
  return out;
}

/** Path placeholders: a wrong-kind or malformed id is 400 invalid_id naming the parameter. */
export function checkPathIds(e: Endpoint, path: Record<string, string>): void {
  for (const [name, kind] of Object.entries(e.pathIds)) {
    const v: string = path[name] ?? '';
    if (kind === 'workspace') {
      if (!isWorkspaceSlug(v)) fail('not_found', `No workspace '${String(v).slice(0, 64)}'.`, { param: 'workspace' });
    } else if (!isId(kind, v)) {
      fail('invalid_id', `${name} must be ${idShape(kind)}.`, { param: name });
    }
  }
}

/** Bodies: strict, unknown fields refused (general rule 5), first problem named. */
export function parseBody(e: Endpoint, raw: unknown): unknown {
  if (!e.body) {
    if (raw !== undefined) fail('invalid_request', 'This endpoint takes no request body.');
    return undefined;
  }
  const value = raw === undefined ? {} : raw;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) fail('invalid_request', 'The request body must be a JSON object.');
  if (e.name === 'create_task' || e.name === 'update_task') {
    for (const [field, why] of Object.entries(TASK_REFUSED_FIELDS)) {
      if (field in value) fail('invalid_request', `${why}.`, { param: field });
    }
  }
  const r = (e.body as z.ZodType).safeParse(value);
  if (r.success) return r.data;
  const issue = r.error.issues[0]!;
  if (issue.code === 'unrecognized_keys') {
    const key = String(issue.keys[0]);
    const at = issue.path.length ? `${issue.path.join('.')}.` : '';
    fail('invalid_request', `Unknown body field '${at}${key}'.`, { param: `${at}${key}` });
  }
  const param = issue.path.map(String).join('.') || undefined;
  const apiCode = issue.code === 'custom' && (issue as { params?: { api_code?: string } }).params?.api_code === 'invalid_id' ? 'invalid_id' : 'invalid_request';
  const message = param ? `Body field '${param}': ${issue.message}.` : `Request body: ${issue.message}.`;
  fail(apiCode, message, param ? { param } : {});
}
