import type { IncomingMessage, ServerResponse } from 'node:http';
import { isInitializeRequest } from '@modelcontextprotocol/server';
import { credentialOf } from './auth.js';
import { readBody } from './body.js';
import type { ClosableClient } from './clients.js';
import { refusedHostOrOrigin } from './guard.js';
import { openSession, tooManyFailures } from './open-session.js';
import { groupOf } from './auth-failures.js';
import { guardReply, reply } from './replies.js';
import type { Session } from './sessions.js';
import type { HttpState } from './state.js';
import { vetLine } from '../jsonrpc-guard.js';
import { isModern, serveModern } from './modern.js';

/**
 * The request listener: /healthz for load balancers, /mcp for MCP, 404 for anything else. A
 * POST is counted in flight until its response ends (for a tool call, when its result was sent);
 * a GET is a notification stream that stays open, so it does not hold a drain back.
 */
export function router<C extends ClosableClient>(s: HttpState<C>): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    // A request answered before its body was read (refused, or a body nobody needs) is not read
    // on: the connection ends with the answer, whatever body the client keeps sending.
    boundReading(req, res);
    // A draining server takes no more requests on any connection: each answer ends its connection.
    if (s.draining) res.setHeader('connection', 'close');
    const path = (req.url ?? '/').split('?')[0];
    if (path === '/healthz') return health(s, res, req.method);
    if (path !== '/mcp') return reply(res, 404, 'Not found: MCP is served at /mcp.');
    if (req.method === 'POST') {
      s.inFlight.start();
      let counted = true;
      const uncount = () => {
        if (!counted) return;
        counted = false;
        s.inFlight.end();
      };
      res.once('close', uncount);
      UNCOUNT.set(req, uncount);
    }
    handleMcp(s, req, res).catch((e: unknown) => {
      s.o.log.error({ err: e }, 'HTTP request failed');
      reply(res, 500, 'Internal error.', {}, -32603);
    });
  };
}

/** A POST stops counting as a call in flight: a 2026-07-28 listen stream, which stays open as a GET stream does. */
const UNCOUNT = new WeakMap<IncomingMessage, () => void>();

/** A body declared at most this long may be left to Node to skip, so the connection can serve the next request. */
const SMALL_BODY_BYTES = 64 * 1024;

/**
 * A request whose body is streamed (chunked) or large is answered with Connection: close, and
 * once the answer is out its connection ends whether or not the body was read: a refused
 * caller cannot keep the server reading (401, 403, 404, 405, /healthz alike).
 */
function boundReading(req: IncomingMessage, res: ServerResponse): void {
  const declared = Number(req.headers['content-length'] ?? 0);
  const small = req.headers['transfer-encoding'] === undefined && Number.isFinite(declared) && declared <= SMALL_BODY_BYTES;
  if (small) return;
  res.setHeader('connection', 'close');
  res.once('finish', () => {
    if (!req.complete) req.socket.destroySoon();
  });
}

/**
 * One /mcp request passes, in order: the Host/Origin allow-list (403), the failed-authentication
 * limit of the client's address (429), credentials (401, before anything touches the API), the
 * drain (503), the session id (404/400), the body limit (413), the JSON-RPC guard (as over stdio),
 * then goes to its session or opens one.
 */
async function handleMcp<C extends ClosableClient>(s: HttpState<C>, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const refused = refusedHostOrOrigin(req.headers, s.o.allowedHosts);
  if (refused) return reply(res, 403, refused);
  const address = clientAddress(req, s.o.trustProxy === true);
  const cred = credentialOf(req.headers, s.o.auth);
  const sid = req.headers['mcp-session-id'];
  const known = typeof sid === 'string' ? s.sessions.get(sid) : undefined;
  // The caller's own open session: others' failures at this address do not lock it out.
  const session = cred.ok && known?.owner === cred.owner ? known : undefined;
  if (!session && s.failures.retryAfter(address) > 0) return tooManyFailures(s, res, address);
  if (!cred.ok) {
    s.failures.failed(address);
    return reply(res, 401, cred.message, { 'www-authenticate': 'Bearer' });
  }
  if (s.draining) return reply(res, 503, 'This server is shutting down; reconnect to start a new session.', { 'retry-after': '1', connection: 'close' });
  // Another caller's session is answered as unknown: its existence is not theirs to learn.
  if (typeof sid === 'string' && !session) return reply(res, 404, 'Session not found: start a new one with initialize.', {}, -32001);
  if (req.method === 'GET' || req.method === 'DELETE') {
    if (!session) return reply(res, 400, 'Bad Request: send the mcp-session-id header of an open session.');
    seen(session, s.sessions.now());
    if (req.method === 'GET') {
      session.streams++;
      res.once('close', () => {
        session.streams--;
        session.lastSeen = s.sessions.now();
      });
    }
    return session.transport.handleRequest(req, res);
  }
  if (req.method !== 'POST') return reply(res, 405, 'Method not allowed: POST, GET or DELETE /mcp.', { allow: 'GET, POST, DELETE' });
  const body = await readBody(req, s.maxBody);
  if (!body.ok) {
    // The rest of an oversized body is not read: the connection ends with the answer (router).
    return reply(res, body.status, body.message, body.status === 413 ? { connection: 'close' } : {}, body.code);
  }
  const vetted = vetLine(body.text);
  if (!('message' in vetted)) return guardReply(res, vetted.reply);
  if (!session && isModern(vetted.message, req.headers)) {
    if ((vetted.message as { method?: string }).method === 'subscriptions/listen') UNCOUNT.get(req)?.();
    return serveModern(s, { req, res, cred, body: vetted.message, address });
  }
  if (session) {
    seen(session, s.sessions.now());
    session.busy++;
    res.once('close', () => {
      session.busy--;
      session.lastSeen = s.sessions.now();
    });
    return session.transport.handleRequest(req, res, vetted.message);
  }
  if (!isInitializeRequest(vetted.message)) return reply(res, 400, 'Bad Request: no session; start one with initialize (without an mcp-session-id header).');
  return openSession(s, { req, res, cred, body: vetted.message, address });
}

/** A request on a session: it is in use now, and its client came back after initialize. */
function seen(session: Session, now: number): void {
  session.lastSeen = now;
  session.returned = true;
}

function health<C extends ClosableClient>(s: HttpState<C>, res: ServerResponse, method: string | undefined): void {
  if (method !== 'GET' && method !== 'HEAD') {
    reply(res, 405, 'Method not allowed: GET /healthz.', { allow: 'GET, HEAD' });
    return;
  }
  const facts = s.o.health?.() ?? {};
  // A part the calls need is down (Redis): a load balancer should send them elsewhere.
  const down = typeof facts.unavailable === 'string';
  res.writeHead(s.draining || down ? 503 : 200, { 'content-type': 'application/json', 'cache-control': 'no-store' });
  const status = s.draining ? 'draining' : down ? 'unavailable' : 'ok';
  res.end(method === 'HEAD' ? undefined : JSON.stringify({ status, sessions: s.sessions.size, keys: s.clients.size, in_flight: s.inFlight.count, ...facts }));
}

/**
 * Who is asking, for the failed-authentication limit: the connection's peer, or behind a
 * trusted reverse proxy (--trust-proxy) the last X-Forwarded-For entry, the one that proxy
 * added (earlier entries are the client's own words). IPv6 stands for its /64.
 */
export function clientAddress(req: IncomingMessage, trustProxy: boolean): string {
  const peer = req.socket.remoteAddress ?? 'unknown';
  const xff = req.headers['x-forwarded-for'];
  if (!trustProxy || xff === undefined) return groupOf(peer);
  const last = (Array.isArray(xff) ? xff.join(',') : xff).split(',').pop()?.trim();
  return groupOf(last || peer);
}
