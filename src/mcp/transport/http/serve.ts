import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { type IncomingMessage, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { type JSONRPCMessage, isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import type { Logger } from 'pino';
import { ApiError, type CallResult, type LimiterEvent } from '../../../client/index.js';
import { AuthFailures } from './auth-failures.js';
import { type Credential, type HttpAuth, credentialOf } from './auth.js';
import { DEFAULT_MAX_BODY_BYTES, readBody } from './body.js';
import { type ClosableClient, KeyClients } from './clients.js';
import { refusedHostOrOrigin } from './guard.js';
import type { Listen } from './listen.js';
import { Sessions } from './sessions.js';
import { InFlight, drainCalls } from '../in-flight.js';
import { vetLine } from '../jsonrpc-guard.js';
import type { InboxServer } from '../../server.js';

export interface HttpServeOptions<C extends ClosableClient> {
  listen: Listen;
  auth: HttpAuth;
  /** Host names (or host:port, or `*`) that Host and Origin may carry. */
  allowedHosts: readonly string[];
  maxSessions: number;
  /** Bearer mode: sessions one key may hold; a new one closes that key's oldest idle session first. Default 10. */
  maxSessionsPerKey?: number;
  /** Failed authentications per client address per minute before 429 (0: no limit). Default 20. */
  authFailuresPerMinute?: number;
  maxBodyBytes?: number;
  /** A session with no request for this long is closed. Default 30 min. */
  idleSessionMs?: number;
  /** On drain, how long in-flight calls may take before everything is closed anyway. Default 30 s. */
  drainTimeoutMs?: number;
  /** The API client for one key; `onEvent` hears its limiter; `me` is its GET /v1/me answer when just read. */
  newClient(apiKey: string, onEvent: (e: LimiterEvent) => void, me?: CallResult): C;
  /**
   * Bearer mode: GET /v1/me for a key that has no client yet, built for nothing else (KeyProbe),
   * so a key the API refuses leaves nothing behind. Without it the full client asks.
   */
  probe?(apiKey: string): Promise<CallResult>;
  /** The MCP server of one session, over its key's client. */
  newServer(client: C): InboxServer;
  /** Extra facts for /healthz (e.g. the Redis connection's state); `unavailable` (a reason) makes it answer 503. */
  health?(): Record<string, unknown>;
  log: Logger;
}

export interface HttpHandle {
  /** The MCP endpoint, e.g. http://127.0.0.1:8080/mcp. */
  url: string;
  port: number;
  sessions(): number;
  /** Refuse new work, let in-flight calls finish (up to drainTimeoutMs), then close every session and client. */
  drain(): Promise<void>;
}

/** A transport-level error, in JSON-RPC's shape as the SDK's own transport answers them. */
function reply(res: ServerResponse, status: number, message: string, headers: Record<string, string> = {}, code = -32000): void {
  send(res, status, { jsonrpc: '2.0', error: { code, message }, id: null }, headers);
}

function send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  if (res.headersSent) {
    res.end();
    return;
  }
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}

/** The answer of the JSON-RPC guard: an error about a request with an id is that request's answer; one with no id is a bad request. */
function guardReply(res: ServerResponse, r: JSONRPCMessage | null): void {
  if (!r) {
    res.writeHead(202).end();
    return;
  }
  send(res, (r as { id: unknown }).id === null ? 400 : 200, r);
}

/**
 * Serve MCP over Streamable HTTP at /mcp, one InboxServer per session (SSE responses, so
 * progress notifications reach the client), and GET /healthz for load balancers. Every
 * /mcp request passes, in order: the Host/Origin allow-list (403), the failed-authentication
 * limit of the client's address (429), credentials (401, before anything touches the API), the
 * drain (503), the body limit (413), the JSON-RPC guard (as over stdio) and the session caps (503).
 */
export async function serveHttp<C extends ClosableClient>(o: HttpServeOptions<C>): Promise<HttpHandle> {
  const maxBody = o.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const sessions = new Sessions(o.maxSessions, o.idleSessionMs ?? 30 * 60_000);
  // A key is held by its sessions or lingers after them: never more keys than sessions can use.
  const clients = new KeyClients<C>(o.newClient, 60_000, o.maxSessions);
  const failures = new AuthFailures(o.authFailuresPerMinute ?? 20);
  const perKey = o.auth.kind === 'bearer' ? (o.maxSessionsPerKey ?? 10) : Number.POSITIVE_INFINITY;
  let draining = false;
  const inFlight = new InFlight();

  const refusedKey = (res: ServerResponse, address: string, e: ApiError) => {
    failures.failed(address);
    reply(res, e.status, `The Reply Inbox API refused this key (${e.code}): ${e.message}`, e.status === 401 ? { 'www-authenticate': 'Bearer' } : {});
  };

  const openSession = async (
    req: IncomingMessage,
    res: ServerResponse,
    cred: Extract<Credential, { ok: true }>,
    body: JSONRPCMessage,
    address: string,
  ): Promise<void> => {
    let me: CallResult | undefined;
    if (o.probe && !clients.has(cred.owner)) {
      try {
        me = await o.probe(cred.apiKey);
      } catch (e) {
        if (e instanceof ApiError && (e.status === 401 || e.status === 403)) return refusedKey(res, address, e);
        return reply(res, 502, `The Reply Inbox API could not say what this key may do (GET /v1/me): ${(e as Error).message}`);
      }
    }
    if (!(await sessions.makeRoomFor(cred.owner, perKey))) {
      return reply(
        res,
        503,
        `This key holds its maximum of ${perKey} MCP sessions (--max-sessions-per-key), all busy. Close a session you no longer use (DELETE /mcp) or retry shortly.`,
        { 'retry-after': '5' },
      );
    }
    if (!sessions.reserve()) {
      reply(
        res,
        503,
        `This server holds its maximum of ${sessions.max} MCP sessions (--max-sessions). Close a session you no longer use (DELETE /mcp) or retry shortly.`,
        { 'retry-after': '5' },
      );
      return;
    }
    let server: InboxServer | undefined;
    const lease = clients.acquire(cred.owner, cred.apiKey, (e) => server?.limiterEvent(e), me);
    let placed = false;
    let closed = false;
    const cleanup = () => {
      if (closed) return;
      closed = true;
      if (placed) sessions.remove(transport.sessionId);
      else sessions.unreserve();
      lease.release();
      void server?.close().catch(() => undefined);
    };
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => {
        placed = true;
        sessions.add({ id, owner: cred.owner, transport, server: server!, lastSeen: Date.now(), busy: 0 });
        o.log.info({ session: id, sessions: sessions.size }, 'session opened');
      },
    });
    transport.onclose = cleanup;
    try {
      server = o.newServer(lease.client);
      // GET /v1/me: the tools this key may use; a key the API refuses ends here.
      await server.refresh();
    } catch (e) {
      cleanup();
      if (e instanceof ApiError && (e.status === 401 || e.status === 403)) {
        // Refused now (revoked since its client was made): nothing of it is kept.
        clients.drop(cred.owner);
        refusedKey(res, address, e);
      } else {
        reply(res, 502, `The Reply Inbox API could not say what this key may do (GET /v1/me): ${(e as Error).message}`);
      }
      return;
    }
    try {
      await server.mcp.connect(transport);
      await transport.handleRequest(req, res, body);
    } finally {
      // An initialize the transport refused (bad protocol version, malformed) opened no session.
      if (!placed) cleanup();
    }
  };

  const handleMcp = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const refused = refusedHostOrOrigin(req.headers, o.allowedHosts);
    if (refused) return reply(res, 403, refused);
    const address = req.socket.remoteAddress ?? 'unknown';
    const wait = failures.retryAfter(address);
    if (wait > 0) {
      return reply(res, 429, `Too many failed authentications from this address; try again in ${wait} s.`, { 'retry-after': String(wait) });
    }
    const cred = credentialOf(req.headers, o.auth);
    if (!cred.ok) {
      failures.failed(address);
      return reply(res, 401, cred.message, { 'www-authenticate': 'Bearer' });
    }
    if (draining) return reply(res, 503, 'This server is shutting down; reconnect to start a new session.', { 'retry-after': '1', connection: 'close' });
    const sid = req.headers['mcp-session-id'];
    const session = typeof sid === 'string' ? sessions.get(sid) : undefined;
    // Another caller's session is answered as unknown: its existence is not theirs to learn.
    if (typeof sid === 'string' && (!session || session.owner !== cred.owner))
      return reply(res, 404, 'Session not found: start a new one with initialize.', {}, -32001);
    if (req.method === 'GET' || req.method === 'DELETE') {
      if (!session) return reply(res, 400, 'Bad Request: send the mcp-session-id header of an open session.');
      session.lastSeen = Date.now();
      return session.transport.handleRequest(req, res);
    }
    if (req.method !== 'POST') return reply(res, 405, 'Method not allowed: POST, GET or DELETE /mcp.', { allow: 'GET, POST, DELETE' });
    const body = await readBody(req, maxBody);
    if (!body.ok) {
      // The rest of an oversized body is not read: the connection ends with the answer.
      if (body.status === 413) res.once('finish', () => req.socket.destroySoon());
      return reply(res, body.status, body.message, body.status === 413 ? { connection: 'close' } : {}, body.code);
    }
    const vetted = vetLine(body.text);
    if (!('message' in vetted)) return guardReply(res, vetted.reply);
    if (session) {
      session.lastSeen = Date.now();
      session.busy++;
      res.once('close', () => session.busy--);
      return session.transport.handleRequest(req, res, vetted.message);
    }
    if (!isInitializeRequest(vetted.message)) return reply(res, 400, 'Bad Request: no session; start one with initialize (without an mcp-session-id header).');
    return openSession(req, res, cred, vetted.message, address);
  };

  const health = (res: ServerResponse, method: string | undefined) => {
    if (method !== 'GET' && method !== 'HEAD') return reply(res, 405, 'Method not allowed: GET /healthz.', { allow: 'GET, HEAD' });
    const facts = o.health?.() ?? {};
    // A part the calls need is down (Redis): a load balancer should send them elsewhere.
    const down = typeof facts.unavailable === 'string';
    res.writeHead(draining || down ? 503 : 200, { 'content-type': 'application/json', 'cache-control': 'no-store' });
    const status = draining ? 'draining' : down ? 'unavailable' : 'ok';
    res.end(method === 'HEAD' ? undefined : JSON.stringify({ status, sessions: sessions.size, keys: clients.size, in_flight: inFlight.count, ...facts }));
  };

  const server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    if (path === '/healthz') return health(res, req.method);
    if (path !== '/mcp') return reply(res, 404, 'Not found: MCP is served at /mcp.');
    // A POST is counted until its response ends, for a tool call when its result was sent; a GET
    // is a notification stream that stays open, so it does not hold a drain back.
    if (req.method === 'POST') {
      inFlight.start();
      res.once('close', () => inFlight.end());
    }
    handleMcp(req, res).catch((e: unknown) => {
      o.log.error({ err: e }, 'HTTP request failed');
      reply(res, 500, 'Internal error.', {}, -32603);
    });
  });
  server.listen(o.listen.port, o.listen.host);
  await once(server, 'listening');
  const addr = server.address() as AddressInfo;
  const host = addr.family === 'IPv6' ? `[${addr.address}]` : addr.address;

  let drained: Promise<void> | null = null;
  const drain = async (): Promise<void> => {
    draining = true;
    server.close();
    server.closeIdleConnections();
    // Closing the clients answers every call still queued behind a bucket "cancelled before it was sent".
    await drainCalls(inFlight, o.drainTimeoutMs ?? 30_000, () => clients.closeAll());
    await sessions.closeAll();
    await clients.closeAll();
    server.closeAllConnections();
  };

  return {
    url: `http://${host}:${addr.port}/mcp`,
    port: addr.port,
    sessions: () => sessions.size,
    drain: () => (drained ??= drain()),
  };
}
