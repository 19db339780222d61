import type { SearchWindow } from '../api/checks.js';
import type { BodyOf, Endpoint, EndpointName, PathOf, QueryOf } from '../api/endpoints.js';
import type { Caller } from './auth.js';
import type { FaultPlan } from './faults.js';
import type { RateLimits } from './limits.js';
import type { Cursors, PageRequest } from './paging.js';
import type { Store } from './store/store.js';
import type { WorkspaceRec } from './store/types.js';

/** What a handler gets: everything already authenticated, authorised and validated. */
export interface Ctx {
  readonly store: Store;
  readonly endpoint: Endpoint;
  readonly caller: Caller;
  /** The path workspace, resolved and within reach (null on /v1/me etc.). */
  readonly ws: WorkspaceRec | null;
  /** Path ids by placeholder name (lead_id, task_id, …), kind already checked. */
  readonly path: Readonly<Record<string, string>>;
  /** Query values parsed by the endpoint table's params (aliases folded). */
  // biome-ignore lint/suspicious/noExplicitAny: values checked by the endpoint table; each handler reads its own
  readonly query: Readonly<Record<string, any>>;
  // biome-ignore lint/suspicious/noExplicitAny: the body the table validated; each handler reads its own fields
  readonly body: any;
  /** The from/to window the endpoint's table rule resolved (defaults applied, bounded); null when it has none. */
  readonly window: SearchWindow | null;
  readonly cursors: Cursors;
  readonly faults: FaultPlan;
  /** The buckets this sandbox enforces, for GET /v1/me's rate_limits. */
  readonly limits: RateLimits;
  /** Real time, for stamping writes. */
  now(): Date;
  /** The paging part of the query. */
  page(): PageRequest;
}

export type HandlerResult = { status?: number; body: unknown } | { binary: Buffer; filename: string };

export type Handler = (ctx: Ctx) => HandlerResult | Promise<HandlerResult>;
export type Handlers = Readonly<Record<string, Handler>>;

/** What the handler of endpoint N gets: its path ids, query and body typed from the endpoint table. */
export type CtxOf<N extends EndpointName> = Omit<Ctx, 'path' | 'query' | 'body'> & {
  readonly path: PathOf<N>;
  readonly query: QueryOf<N>;
  readonly body: BodyOf<N>;
};
export type HandlerOf<N extends EndpointName> = (ctx: CtxOf<N>) => HandlerResult | Promise<HandlerResult>;
/** One handler per endpoint of the table, by name: a missing one does not compile. */
export type HandlerTable = { readonly [N in EndpointName]: HandlerOf<N> };
/** The handlers of one area of the API: part of the table, each typed by its endpoint. */
export type AreaHandlers = Partial<HandlerTable>;

/** The workspace of a workspace-scoped endpoint (always set there). */
export function wsOf(ctx: Ctx): WorkspaceRec {
  if (!ctx.ws) throw new Error(`${ctx.endpoint.name} has no workspace in its path`);
  return ctx.ws;
}
