import type { CallResult } from '../../../client/index.js';
import type { Me } from '../../../api/resources.js';
import type { AuthFailures } from './auth-failures.js';
import type { ClosableClient, KeyClients } from './clients.js';
import type { HttpServeOptions } from './options.js';
import type { Sessions } from './sessions.js';
import type { InFlight } from '../in-flight.js';
import type { InboxServer } from '../../server.js';
import type { NodeMcpRequestHandler } from '@modelcontextprotocol/node';
import type { McpHttpHandler } from '@modelcontextprotocol/server';
import type { KeyListens } from '../../live/key-listens.js';

/** What the HTTP endpoint's parts share: the options, the session table, the key clients, the limits. */
export interface HttpState<C extends ClosableClient> {
  o: HttpServeOptions<C>;
  sessions: Sessions<InboxServer>;
  clients: KeyClients<C>;
  failures: AuthFailures;
  /** Keys the API is being asked about now (GET /v1/me), by owner: later initializes of the key share the answer. */
  judging: Map<string, Promise<CallResult<Me>>>;
  /** Sessions one caller may hold (bearer mode; unbounded in token mode). */
  perKey: number;
  maxBody: number;
  inFlight: InFlight;
  /** Each key's 2026-07-28 handler, by owner. */
  modern: Map<string, ModernKey<C>>;
  /** Set once a drain begins: new work is refused. */
  draining: boolean;
}

/**
 * What serves one key's 2026-07-28 requests: the SDK's per-request handler (one event bus per
 * key, so a change to one key's inbox reaches only its listeners) and the key's listen streams.
 */
export interface ModernKey<C> {
  client: C;
  /** Calls and reads; listen streams have a handler of their own on the same bus, so a drain can end them first. */
  calls: Served;
  streams: Served;
  listens: KeyListens | null;
}

export interface Served {
  handler: McpHttpHandler;
  node: NodeMcpRequestHandler;
}
