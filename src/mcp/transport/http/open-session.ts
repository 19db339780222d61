import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { JSONRPCMessage } from '@modelcontextprotocol/server';
import { NodeStreamableHTTPServerTransport } from '@modelcontextprotocol/node';
import { ApiError, type CallResult } from '../../../client/index.js';
import type { Me } from '../../../api/resources.js';
import type { InboxServer } from '../../server.js';
import type { Credential } from './auth.js';
import type { ClosableClient } from './clients.js';
import { RecentEvents, SSE_RETRY_MS } from './event-store.js';
import { refuse, reply } from './replies.js';
import type { HttpState } from './state.js';

type Caller = Extract<Credential, { ok: true }>;

/** An initialize without a session id: the request, its answer, who sent it and from where. */
export interface Opening {
  req: IncomingMessage;
  res: ServerResponse;
  cred: Caller;
  body: JSONRPCMessage;
  /** The client's address group, for the failed-authentication limit. */
  address: string;
  /** Set when the API refused the key: the attempt counts as a failed authentication. */
  refused?: boolean;
}

/**
 * The life of a session: an initialize without a session id is checked against the API (GET
 * /v1/me), given a place under the caps, built (its own InboxServer and transport), and from
 * then on lives in the session table until its transport closes (DELETE, idle sweep, eviction, drain).
 */
export function openSession<C extends ClosableClient>(s: HttpState<C>, o: Opening): Promise<void> {
  return withAcceptedKey(s, o, async (me) => {
    if (!placeSession(s, o.res, o.cred)) return;
    await buildSession(s, o, me);
  });
}

/**
 * Run `use` once the API has accepted the caller's key (a key with a client now was accepted
 * before); a refusal is answered here and counted as a failed authentication of the address.
 * `use` is given the key's GET /v1/me answer when it was just read.
 */
export async function withAcceptedKey<C extends ClosableClient>(
  s: HttpState<C>,
  o: Opening,
  use: (me: CallResult<Me> | undefined) => Promise<void>,
): Promise<void> {
  const checked = async () => {
    const me = await probeKey(s, o);
    if (me !== false) await use(me);
  };
  if (s.clients.has(o.cred.owner)) return checked();
  // Requests of a key the API is judging now wait for that answer: a burst of one key is one attempt.
  if (s.judging.has(o.cred.owner)) {
    await checked();
    if (o.refused) s.failures.failed(o.address);
    return;
  }
  // A key the API has not accepted yet is counted while it judges it, so a burst of made-up keys cannot all reach it.
  if (!s.failures.begin(o.address)) return tooManyFailures(s, o.res, o.address);
  try {
    await checked();
  } finally {
    s.failures.end(o.address, o.refused !== true);
  }
}

/** The 429 of an address past its failed-authentication limit. */
export function tooManyFailures<C extends ClosableClient>(s: HttpState<C>, res: ServerResponse, address: string): void {
  const wait = Math.max(1, s.failures.retryAfter(address));
  refuse(
    res,
    429,
    'auth-failures-per-minute',
    wait,
    `Too many failed authentications from this address; try again in ${wait} s (--auth-failures-per-minute ${s.failures.perWindow}).`,
  );
}

/** A key with no client yet is asked GET /v1/me by the probe first; false when the answer was sent (refused). */
async function probeKey<C extends ClosableClient>(s: HttpState<C>, o: Opening): Promise<CallResult<Me> | undefined | false> {
  const { cred } = o;
  const probe = s.o.probe;
  if (!probe || s.clients.has(cred.owner)) return undefined;
  let judging = s.judging.get(cred.owner);
  if (!judging) {
    judging = probe(cred.apiKey).finally(() => s.judging.delete(cred.owner));
    s.judging.set(cred.owner, judging);
  }
  try {
    return await judging;
  } catch (e) {
    refusedByApi(s, o, e);
    return false;
  }
}

/** Reserve a place under the per-key cap (429 when refused) and the server's cap (503), both with Retry-After; false when refused. */
function placeSession<C extends ClosableClient>(s: HttpState<C>, res: ServerResponse, cred: Caller): boolean {
  const refused = s.sessions.reserve(cred.owner, s.perKey);
  if (refused === null) return true;
  const wait = s.sessions.retryAfter(refused, cred.owner);
  if (refused === 'key') {
    refuse(
      res,
      429,
      'max-sessions-per-key',
      wait,
      `This key holds its maximum of ${s.perKey} MCP sessions (--max-sessions-per-key), all busy, being opened or just opened. Close a session you no longer use (DELETE /mcp) or retry in ${wait} s.`,
    );
  } else {
    refuse(
      res,
      503,
      'max-sessions',
      wait,
      `This server holds its maximum of ${s.sessions.max} MCP sessions (--max-sessions), all busy, being opened or just opened. Close a session you no longer use (DELETE /mcp) or retry in ${wait} s.`,
    );
  }
  return false;
}

/** Build the session on its reserved place; whatever fails gives the place and the key's lease back. */
async function buildSession<C extends ClosableClient>(s: HttpState<C>, o: Opening, me: CallResult<Me> | undefined): Promise<void> {
  const { req, res, cred, body } = o;
  let server: InboxServer | undefined;
  const lease = s.clients.acquire(cred.owner, cred.apiKey, (e) => server?.limiterEvent(e), me);
  let placed = false;
  let closed = false;
  const cleanup = () => {
    if (closed) return;
    closed = true;
    if (placed) s.sessions.remove(transport.sessionId);
    else s.sessions.unreserve(cred.owner);
    lease.release();
    void server?.close().catch(() => undefined);
  };
  const events = new RecentEvents(s.sessions.now);
  const transport = new NodeStreamableHTTPServerTransport({
    sessionIdGenerator: () => randomUUID(),
    // Each SSE stream starts with a priming event (an id, and how long to wait before reconnecting).
    eventStore: events,
    retryInterval: SSE_RETRY_MS,
    onsessioninitialized: (id) => {
      placed = true;
      s.sessions.add({ id, owner: cred.owner, transport, server: server!, lastSeen: s.sessions.now(), busy: 0, streams: 0, returned: false, events });
      s.o.log.info({ session: id, sessions: s.sessions.size }, 'session opened');
    },
  });
  transport.onclose = cleanup;
  server = await readyServer(s, o, lease.client, cleanup);
  if (!server) return;
  try {
    await server.mcp.connect(transport);
    await transport.handleRequest(req, res, body);
  } finally {
    // An initialize the transport refused (bad protocol version, malformed) opened no session.
    if (!placed) cleanup();
  }
}

/**
 * A server over the key's client, its tools chosen from GET /v1/me; undefined when the API
 * refused the key or could not be asked (answered, `cleanup` run, nothing kept).
 */
export async function readyServer<C extends ClosableClient>(s: HttpState<C>, o: Opening, client: C, cleanup: () => void): Promise<InboxServer | undefined> {
  const server = s.o.newServer(client);
  try {
    await server.refresh();
    return server;
  } catch (e) {
    cleanup();
    void server.close().catch(() => undefined);
    // Refused now (revoked since its client was made): nothing of it is kept.
    if (isRefusal(e)) s.clients.drop(o.cred.owner);
    refusedByApi(s, o, e);
    return undefined;
  }
}

function isRefusal(e: unknown): e is ApiError {
  return e instanceof ApiError && (e.status === 401 || e.status === 403);
}

/** The API refused the key (401/403: counted as a failed authentication) or could not be asked (502). */
function refusedByApi<C extends ClosableClient>(_s: HttpState<C>, o: Opening, e: unknown): void {
  const { res } = o;
  if (isRefusal(e)) {
    o.refused = true;
    reply(res, e.status, `The Reply Inbox API refused this key (${e.code}): ${e.message}`, e.status === 401 ? { 'www-authenticate': 'Bearer' } : {});
    return;
  }
  reply(res, 502, `The Reply Inbox API could not say what this key may do (GET /v1/me): ${(e as Error).message}`);
}
