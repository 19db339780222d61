import type { z } from 'zod';
import type { Bucket, Scope } from '../enums.js';
import type { IdKind } from '../ids.js';
import type { Param } from '../params.js';
import type { ResourceName } from '../resources.js';

// What an endpoint is (EndpointOfName; src/api/endpoints.ts names it Endpoint, with the names of
// its rows) and how a row of the table is written (EndpointRow). The rows
// live one file per area beside this one; src/api/endpoints.ts completes them (defaults, path ids).

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
export type ApiErrorCode =
  | 'invalid_request'
  | 'invalid_cursor'
  | 'invalid_id'
  | 'unsupported_filter'
  | 'unsupported_sort'
  | 'missing_authorization'
  | 'malformed_key'
  | 'invalid_key'
  | 'key_revoked'
  | 'key_expired'
  | 'owner_deactivated'
  | 'insufficient_scope'
  | 'workspace_forbidden'
  | 'test_keys_unsupported'
  | 'not_found'
  | 'conflict'
  | 'unprocessable'
  | 'rate_limited'
  | 'too_many_concurrent'
  | 'internal_error'
  | 'upstream_error';

export type Toolset = 'workspaces' | 'leads' | 'conversations' | 'tasks' | 'notes' | 'meetings' | 'scheduling' | 'templates' | 'campaigns' | 'insights';

/**
 * A from/to window the service checks (insights, slots). `unit: 'day'` takes whole UTC days
 * with both ends included; `instant` takes a day (a `to` day includes itself) or a date-time.
 */
export interface WindowRule {
  readonly maxDays: number;
  /** Beyond the cap: refused (insights are "never silently truncated") or clamped (slots). */
  readonly over: 'refuse' | 'clamp';
  readonly unit: 'day' | 'instant';
  /** The window when a bound is left out: `back` ends now and reaches back; `forward` starts now. */
  readonly defaultDays: number;
  readonly runs: 'back' | 'forward';
  /** The parameter a refusal names. */
  readonly blame: 'from' | 'to';
}

/** An argument this endpoint takes in another form: the one to use, and how, in a sentence for the refusal. */
export interface MisnamedNote {
  readonly use: string;
  readonly note: string;
}

/**
 * One endpoint of the v1 API. This table is the only place an endpoint is described: the
 * sandbox routes and validates with it, the client picks buckets and retry policy from it,
 * and the tools take their scope, read/write nature and annotations from it.
 */
export interface EndpointOfName<Name extends string> {
  /** Stable name; for an inbox endpoint (one with a toolset) it is also the MCP tool's name. */
  readonly name: Name;
  readonly method: Method;
  /** Path template; `{workspace}` and `{<kind>_id}` placeholders. */
  readonly path: string;
  /** Kind of each path id, for validation before anything is sent: derived from `path` ({x_id} is an id of kind x). */
  readonly pathIds: Readonly<Record<string, IdKind | 'workspace'>>;
  readonly scope: Scope | null;
  /** The bucket the spec's table names. */
  readonly bucket: Bucket;
  /** A query value that moves the call to the upstream bucket (include=counts, include=sdr_notes). */
  readonly upstreamWhen?: { readonly param: string; readonly values: readonly string[] };
  /** Our reading of the thread figure (30/min): see docs/spec-gaps.md. */
  readonly alsoMeters?: readonly Bucket[];
  // biome-ignore lint/suspicious/noExplicitAny: each param keeps its own value type
  readonly query: Readonly<Record<string, Param<any>>>;
  /** Query names the service accepts as aliases of another (starting_after → cursor). */
  readonly aliases?: Readonly<Record<string, string>>;
  readonly maxExpansions?: number;
  readonly body: z.ZodType | null;
  /** Body fields refused by name, with the reason (title on a task write), before the schema's "unknown field". */
  readonly refusedFields?: Readonly<Record<string, string>>;
  /**
   * Arguments agents send under another name, and the name this endpoint takes (create_task title → notes);
   * or, where the value does not carry over as is, the argument to use and a sentence on how (list_leads state → status).
   */
  readonly misnamed?: Readonly<Record<string, string | MisnamedNote>>;
  /** Values of a parameter that another endpoint sets (set_status status booked → mark_booked): the refusal names it. */
  readonly elsewhere?: Readonly<Record<string, Readonly<Record<string, string>>>>;
  /** A from/to window the service checks and bounds (insights, slots). */
  readonly window?: WindowRule;
  /** Its answer carries the key's rate_limits: the client takes its bucket figures from it. */
  readonly tellsLimits?: boolean;
  readonly status: 200 | 201;
  readonly returns: 'list' | 'object' | 'binary';
  /** The `object` kind of what comes back (the items, for a list): its schema in RESOURCES types the answer. */
  readonly resource: ResourceName;
  /** Changes state (even if the bucket is not `write`, e.g. mobile sessions). */
  readonly write: boolean;
  /** Repeating it leaves the same state: a retry after an unknown outcome is harmless. */
  readonly idempotent: boolean;
  /** The read that tells whether a write of unknown outcome was applied (a create is found in its list). */
  readonly settledBy?: string;
  /** May remove or overwrite data, or trigger consequences no later call restores. */
  readonly destructive: boolean;
  readonly errors: readonly ApiErrorCode[];
  /** MCP toolset; absent for the endpoints that are not tools (mobile sessions). */
  readonly toolset?: Toolset;
}

/** The path of the workspace and of one of its leads; `{x_id}` placeholders name an id of kind x. */
export const WS = '/v1/workspaces/{workspace}';
export const LEAD = `${WS}/leads/{lead_id}`;

/** Fields a row may leave out: defaults (GETs are reads, idempotent, not destructive) or derived (path ids). */
type Defaulted = 'query' | 'body' | 'status' | 'write' | 'idempotent' | 'destructive' | 'errors';

/** A row of the endpoint table as written: path ids are derived from the path, never written. */
export type EndpointRow = Omit<EndpointOfName<string>, 'pathIds' | Defaulted> & Partial<Pick<EndpointOfName<string>, Defaulted>>;
