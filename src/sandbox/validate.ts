import { type Checked, type SearchWindow, checkBody, queryName, resolveWindow } from '../api/checks.js';
import type { Endpoint } from '../api/endpoints.js';
import { idShape, isId, isWorkspaceSlug } from '../api/ids.js';
import { fail } from './errors.js';

/** A shared check's answer (api/checks.ts, the same the client makes): its value, or the error envelope. */
function accepted<T>(r: Checked<T>): T {
  if (!r.ok) fail(r.code, r.message, r.param !== undefined ? { param: r.param } : {});
  return r.value;
}

/** General rule 5 and the endpoint's params: unknown → unsupported_filter naming it. */
export function parseQuery(e: Endpoint, search: URLSearchParams): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const seen = new Set<string>();
  for (const [rawName, raw] of search) {
    if (seen.has(rawName)) fail('invalid_request', `Query parameter '${rawName}' is given more than once.`, { param: rawName });
    seen.add(rawName);
    const name = accepted(queryName(e, rawName, out));
    const r = e.query[name]!.fromWire(raw);
    if (!r.ok) fail(r.code, `Query parameter '${rawName}' ${r.message}.`, { param: rawName });
    out[name] = r.value;
  }
  return out;
}

/** The from/to window the endpoint searches (its table rule), checked and bounded; null when it has none. */
export function searchWindow(e: Endpoint, query: Record<string, unknown>, now: Date): SearchWindow | null {
  return accepted(resolveWindow(e, query, now.getTime()));
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
  return accepted(checkBody(e, raw));
}
