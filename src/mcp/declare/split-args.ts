import type { Endpoint } from '../../api/endpoints.js';

/**
 * Split flat tool arguments into the endpoint's path, query and body, by the endpoint
 * table's own names. Arguments that are the tool's own (view, fields…) are left out.
 */
export function splitArgs(e: Endpoint, args: Record<string, unknown>, workspace: string | null, own: readonly string[] = []) {
  const path: Record<string, string> = {};
  const query: Record<string, unknown> = {};
  const body: Record<string, unknown> = {};
  for (const [name, kind] of Object.entries(e.pathIds)) {
    if (kind === 'workspace') path[name] = workspace ?? '';
    else path[name] = String(args[name]);
  }
  for (const [name, value] of Object.entries(args)) {
    if (value === undefined || name in e.pathIds || own.includes(name)) continue;
    if (name in e.query) query[name] = value;
    else body[name] = value;
  }
  return { path, query, body: e.body ? body : undefined };
}
