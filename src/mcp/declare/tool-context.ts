import type { Logger } from 'pino';
import type { Clock } from '../../clock.js';
import type { Endpoint, EndpointName } from '../../api/endpoints.js';
import type { ReturnOf } from '../../api/returns.js';
import type { RequestOf } from '../../client/call-types.js';
import type { Fence } from '../view/fence.js';

/** One call as the server hands it to the client: a row's path ids, query and body (the client checks them against the row). */
export interface ApiRequest {
  path?: Readonly<Record<string, string>>;
  query?: Readonly<Record<string, unknown>>;
  body?: unknown;
  signal?: AbortSignal;
  deadlineMs?: number;
}

/** What a call answers the server: the data, its age when it came from the client's cache, a file's name and type. */
export interface ApiAnswer<T = unknown> {
  data: T;
  cachedAgeSeconds?: number;
  filename?: string | null;
  contentType?: string | null;
}

/** One call by a row's name, its answer as it comes: how each layer of the server's chain hands a call on (pipeline/api-chain.ts). */
export type Send = (name: EndpointName, req: ApiRequest) => Promise<ApiAnswer>;

/** The API client as the server is given it: a ReplyInboxClient, or a test's stand-in. */
export interface ApiClient {
  call(name: EndpointName, req: ApiRequest): Promise<ApiAnswer>;
  /** Aborted once the client is closed (the server drains): nothing more is sent, and a question still waiting for the person is given up. */
  readonly ended?: AbortSignal;
}

/** What endpoint N takes from the server: path, query and body as its row says (RequestOf), and the call's signal. */
export type ApiRequestOf<N extends EndpointName> = RequestOf<N> & { signal?: AbortSignal };

/** The API by a row's name: N's request as its row takes it, its answer as the row returns it (ReturnOf). */
export interface TypedApi {
  call<N extends EndpointName>(name: N, req: ApiRequestOf<N>): Promise<ApiAnswer<ReturnOf<N>>>;
}

/**
 * The API as tools, resources and prompts call it, every JSON answer checked against its row
 * first (pipeline/api-chain.ts builds it): `call` by a row's name, typed; `send` for a row known
 * only at run time (a tool's own endpoint, its arguments split by the table), its answer unknown.
 */
export interface ApiCaller extends TypedApi {
  send: Send;
}

/** What a tool's `run` receives. */
export interface ToolContext {
  /** The endpoint of the tool being called: a tool's helpers call this one, never one named again by hand. */
  endpoint: Endpoint;
  api: ApiCaller;
  /** A write: what it did, in the words its answer uses ("created", "marked read"). */
  did?: string;
  /** The workspace argument, or the server's default, or a clear error. */
  workspace(args: { workspace?: string }): string;
  signal: AbortSignal;
  /** The server's clock (tests set it): what "today" is in an answer. */
  clock: Pick<Clock, 'now'>;
  fence: Fence;
  log: Logger;
  progress(done: number, total?: number, message?: string): Promise<void>;
}
