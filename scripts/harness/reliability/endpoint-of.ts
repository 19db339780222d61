import { ENDPOINTS, type Endpoint } from '../../../src/api/endpoints.js';
import { isId, isWorkspaceSlug } from '../../../src/api/ids.js';

const TEMPLATES = ENDPOINTS.map((e) => ({
  e,
  names: [...e.path.matchAll(/\{([a-z_]+)\}/g)].map((m) => m[1]!),
  re: new RegExp(`^${e.path.replace(/\{[a-z_]+\}/g, '([^/?#]+)')}$`),
}));

/**
 * The endpoint a raw request target belongs to: its path matches the template of an
 * endpoint with that method, every path value decodes to a valid id of its kind (so no
 * `..`, `/` or `?` hides in it), and every query key is one that endpoint accepts.
 */
export function endpointOf(method: string, target: string): Endpoint | null {
  const q = target.indexOf('?');
  const path = q >= 0 ? target.slice(0, q) : target;
  const query = new URLSearchParams(q >= 0 ? target.slice(q + 1) : '');
  for (const { e, names, re } of TEMPLATES) {
    if (e.method !== method) continue;
    const m = re.exec(path);
    if (!m) continue;
    const valid = names.every((name, i) => {
      let v: string;
      try {
        v = decodeURIComponent(m[i + 1]!);
      } catch {
        return false;
      }
      const kind = e.pathIds[name];
      return kind === 'workspace' ? isWorkspaceSlug(v) : kind !== undefined && isId(kind, v);
    });
    if (!valid) continue;
    const keys = [...query.keys()];
    if (keys.every((k) => k in e.query || (e.aliases && k in e.aliases))) return e;
  }
  return null;
}
