import { ENDPOINTS, type Endpoint } from '../api/endpoints.js';

interface Route {
  endpoint: Endpoint;
  regex: RegExp;
  names: string[];
  /** Literal segments count: a static segment beats a placeholder (leads/priority vs leads/{lead_id}). */
  literals: number;
}

/** Placeholders match one path segment of anything but '/'; kinds are checked afterwards. */
function compile(e: Endpoint): Route {
  const names: string[] = [];
  let literals = 0;
  const pattern = e.path
    .split('/')
    .map((seg) => {
      const m = /^\{(\w+)\}$/.exec(seg);
      if (m) {
        names.push(m[1] as string);
        return '([^/]+)';
      }
      literals++;
      return seg.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    })
    .join('/');
  return { endpoint: e, regex: new RegExp(`^${pattern}$`), names, literals };
}

const ROUTES = ENDPOINTS.map(compile).sort((a, b) => b.literals - a.literals);

export type Match = { kind: 'match'; endpoint: Endpoint; path: Record<string, string> } | { kind: 'method'; allowed: string[] } | { kind: 'none' };

export function route(method: string, pathname: string): Match {
  const allowed: string[] = [];
  for (const r of ROUTES) {
    const m = r.regex.exec(pathname);
    if (!m) continue;
    if (r.endpoint.method !== method) {
      allowed.push(r.endpoint.method);
      continue;
    }
    const path: Record<string, string> = {};
    let bad = false;
    r.names.forEach((n, i) => {
      try {
        path[n] = decodeURIComponent(m[i + 1] as string);
      } catch {
        bad = true;
      }
    });
    if (bad) continue;
    return { kind: 'match', endpoint: r.endpoint, path };
  }
  return allowed.length ? { kind: 'method', allowed } : { kind: 'none' };
}
