import type { Toolset } from '../../api/endpoints.js';
import type { ToolDef } from './define.js';

export interface Selection {
  /** Areas to serve; default all. */
  toolsets?: readonly Toolset[];
  /** Single tools to serve besides the toolsets. */
  tools?: readonly string[];
  /** No write tool at all; wins over everything. */
  readOnly: boolean;
  /** The key's usable scopes (GET /v1/me); null when unknown. */
  scopes: ReadonlySet<string> | null;
}

export interface Hidden {
  name: string;
  reason: 'read_only' | 'scope' | 'not_selected';
  detail: string;
  /** The scope the key lacks (reason scope). */
  scope?: string;
}

/** Which tools a client sees, and why each other one is hidden. */
export function selectTools(all: readonly ToolDef[], sel: Selection): { enabled: ToolDef[]; hidden: Hidden[] } {
  const enabled: ToolDef[] = [];
  const hidden: Hidden[] = [];
  const chooseAll = !sel.toolsets?.length && !sel.tools?.length;
  for (const t of all) {
    const chosen = chooseAll || sel.toolsets?.includes(t.toolset) || sel.tools?.includes(t.name);
    if (!chosen) hidden.push({ name: t.name, reason: 'not_selected', detail: `not in the chosen toolsets or tools` });
    else if (sel.readOnly && t.endpoint.write) hidden.push({ name: t.name, reason: 'read_only', detail: 'read-only mode registers no write tool' });
    else if (sel.scopes && t.endpoint.scope && !sel.scopes.has(t.endpoint.scope)) {
      hidden.push({ name: t.name, reason: 'scope', detail: `the key cannot use the scope ${t.endpoint.scope}`, scope: t.endpoint.scope });
    } else enabled.push(t);
  }
  return { enabled, hidden };
}
