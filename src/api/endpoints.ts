import type { z } from 'zod';
import type { Bucket } from './enums.js';
import { ID_PREFIXES, type IdKind } from './ids.js';
import type { Param } from './params.js';
import { CAMPAIGN_ROWS } from './table/campaigns.js';
import { CONVERSATION_ROWS } from './table/conversations.js';
import { INSIGHT_ROWS } from './table/insights.js';
import { LEAD_ROWS } from './table/leads.js';
import { MEETING_ROWS } from './table/meetings.js';
import { MOBILE_ROWS } from './table/mobile.js';
import { NOTE_ROWS } from './table/notes.js';
import type { EndpointOfName, EndpointRow, Toolset } from './table/row.js';
import { SCHEDULING_ROWS } from './table/scheduling.js';
import { TASK_ROWS } from './table/tasks.js';
import { TEMPLATE_ROWS } from './table/templates.js';
import { WORKSPACE_ROWS } from './table/workspaces.js';

export type { ApiErrorCode, Method, Toolset, WindowRule } from './table/row.js';

/**
 * The endpoint table: the only place an endpoint is described. Its rows are written one file
 * per area in src/api/table/; the sandbox routes and validates with it, the client picks
 * buckets and retry policy from it, and the tools take their scope, read/write nature and
 * annotations from it. The rows are constants, so names, bodies and queries are types too.
 */
const ROWS = [
  ...WORKSPACE_ROWS,
  ...LEAD_ROWS,
  ...CONVERSATION_ROWS,
  ...TASK_ROWS,
  ...NOTE_ROWS,
  ...MEETING_ROWS,
  ...SCHEDULING_ROWS,
  ...TEMPLATE_ROWS,
  ...CAMPAIGN_ROWS,
  ...INSIGHT_ROWS,
  ...MOBILE_ROWS,
] as const;

/** A row of the table as written, with its literal types. */
export type Row = (typeof ROWS)[number];
/** The row of endpoint N (the rows of each name, for a union of names). */
export type RowOf<N extends EndpointName> = Extract<Row, { readonly name: N }>;

/** The name of an endpoint of the table: a typo does not compile. */
export type EndpointName = Row['name'];
/** One endpoint of the v1 API, completed (defaults, path ids): what src/api/table/row.ts describes, named by the table. */
export type Endpoint = EndpointOfName<EndpointName>;
/** Some names of the table, checked: a union written by hand that names a renamed or removed row does not compile. */
export type Names<N extends EndpointName> = N;
/** The name of an endpoint that is an MCP tool (it has a toolset). */
export type ToolEndpointName = Extract<Row, { readonly toolset: Toolset }>['name'];
/** The name of an endpoint that answers a page of a list. */
export type ListEndpointName = Extract<Row, { readonly returns: 'list' }>['name'];
/** Endpoint N, completed: its name is known to the compiler. */
export type EndpointOf<N extends EndpointName> = Endpoint & { readonly name: N };

/** The placeholders of a path template: '/a/{workspace}/b/{lead_id}' → 'workspace' | 'lead_id'. */
type Placeholders<P extends string> = P extends `${string}{${infer X}}${infer Rest}` ? X | Placeholders<Rest> : never;
/** The path ids of an endpoint, by placeholder name. */
export type PathOf<N extends EndpointName> = { readonly [K in Placeholders<RowOf<N>['path']>]: string };
/** The body an endpoint takes, as its schema leaves it after validation (undefined: it takes none). */
export type BodyOf<N extends EndpointName> = RowOf<N> extends { readonly body: infer B extends z.ZodType } ? z.output<B> : undefined;
/** The query an endpoint takes, each parameter as its Param reads it from the wire. */
export type QueryOf<N extends EndpointName> =
  RowOf<N> extends { readonly query: infer Q } ? { readonly [K in keyof Q]?: Q[K] extends Param<infer T> ? T : never } : { readonly [K in never]: never };

// Every placeholder is {workspace} or {<id kind>_id}: another one does not compile.
type Unknown = Exclude<Placeholders<Row['path']>, 'workspace' | `${IdKind}_id`>;
const placeholdersKnown: [Unknown] extends [never] ? true : Unknown = true;
void placeholdersKnown;
// The reads a row names (settledBy, elsewhere) are rows too: a renamed or removed one does not compile.
type Named = Extract<Row, { readonly settledBy: string }>['settledBy'] | NamedElsewhere<Extract<Row, { readonly elsewhere: object }>['elsewhere']>;
type NamedElsewhere<E> = E extends Readonly<Record<string, infer V>> ? (V extends Readonly<Record<string, infer N>> ? N : never) : never;
const namesKnown: [Exclude<Named, EndpointName>] extends [never] ? true : Exclude<Named, EndpointName> = true;
void namesKnown;

const PLACEHOLDER = /\{(\w+)\}/g;

/** Each `{x}` of a path → the kind of id it holds: `{workspace}` a workspace, `{task_id}` a task id. */
export function pathIdsOf(path: string): Readonly<Record<string, IdKind | 'workspace'>> {
  const out: Record<string, IdKind | 'workspace'> = {};
  for (const [, name] of path.matchAll(PLACEHOLDER)) {
    const kind = name === 'workspace' ? name : name!.replace(/_id$/, '');
    if (kind !== 'workspace' && (!name!.endsWith('_id') || !(kind in ID_PREFIXES))) throw new Error(`${path}: {${name}} names no id kind`);
    out[name!] = kind as IdKind | 'workspace';
  }
  return out;
}

/** A row completed: path ids from the path; GETs are reads, idempotent, not destructive; writes say what they are. */
function complete(row: Row): Endpoint {
  const d: EndpointRow = row;
  const write = d.write ?? d.method !== 'GET';
  return {
    pathIds: pathIdsOf(d.path),
    query: {},
    body: null,
    status: 200,
    idempotent: true,
    destructive: false,
    errors: [],
    ...d,
    name: row.name,
    write,
  };
}

export const ENDPOINTS: readonly Endpoint[] = ROWS.map(complete);

export const ENDPOINT_BY_NAME: ReadonlyMap<string, Endpoint> = new Map(ENDPOINTS.map((e) => [e.name, e]));

/** Endpoint N of the table; a name that is no row does not compile (and throws, for a caller that is not typed). */
export function endpoint<N extends EndpointName>(name: N): EndpointOf<N> {
  const e = ENDPOINT_BY_NAME.get(name);
  if (!e) throw new Error(`unknown endpoint ${name}`);
  return e as EndpointOf<N>;
}

/** The endpoints that are MCP tools (all but the mobile-session pair). */
export const TOOL_ENDPOINTS = ENDPOINTS.filter((e) => e.toolset !== undefined);

/** The buckets one call spends, given its query: the table's bucket plus any extra meter. */
export function bucketsFor(e: Endpoint, query: Readonly<Record<string, unknown>> = {}): Bucket[] {
  let main = e.bucket;
  if (e.upstreamWhen) {
    const v = query[e.upstreamWhen.param];
    const values = Array.isArray(v) ? v : typeof v === 'string' ? v.split(',') : [];
    if (values.some((x) => e.upstreamWhen!.values.includes(String(x)))) main = 'upstream';
  }
  return [main, ...(e.alsoMeters ?? [])];
}
