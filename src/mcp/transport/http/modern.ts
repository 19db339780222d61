import type { IncomingHttpHeaders } from 'node:http';
import { toNodeHandler } from '@modelcontextprotocol/node';
import {
  type AuthInfo,
  classifyInboundRequest,
  createMcpHandler,
  InMemoryServerEventBus,
  type JSONRPCMessage,
  type McpRequestContext,
} from '@modelcontextprotocol/server';
import { KeyListens, listenUris, openListen } from '../../live/key-listens.js';
import { MAX_SUBSCRIPTIONS, Subscriptions } from '../../live/subscriptions.js';
import type { InboxServer } from '../../server.js';
import type { ClosableClient } from './clients.js';
import { type Opening, readyServer, withAcceptedKey } from './open-session.js';
import { send } from './replies.js';
import type { HttpState, ModernKey, Served } from './state.js';

/**
 * Whether a POST goes to the 2026-07-28 handler: the SDK's own classification (what
 * isLegacyRequest decides), read on the body we parsed already and the request's
 * MCP-Protocol-Version, Mcp-Method and Mcp-Name headers. Besides a request whose `_meta` names
 * a protocol version, a request that claims 2026-07-28 by its header alone goes there, and so
 * does one whose header and body disagree: the SDK's handler answers those with their own
 * errors (-32602 and the request's id), not with the 2025 path's "no session".
 */
export function isModern(message: JSONRPCMessage, headers: IncomingHttpHeaders): boolean {
  const header = (name: string) => {
    const v = headers[name];
    return Array.isArray(v) ? v.join(', ') : v;
  };
  const route = classifyInboundRequest({
    httpMethod: 'POST',
    protocolVersionHeader: header('mcp-protocol-version'),
    mcpMethodHeader: header('mcp-method'),
    mcpNameHeader: header('mcp-name'),
    body: message,
  });
  return route.kind !== 'legacy';
}

/** Who answers this request: the server built for it, handed to the SDK's factory with the request. */
const SERVER = 'reply-inbox-mcp/server';

/**
 * A 2026-07-28 request: no session. Its key is checked as an initialize's is (GET /v1/me,
 * failed-authentication limits), a server is built for this one request over the key's client
 * (the limiter, cache and duplicate guard are the key's), and the SDK's handler answers it.
 * A listen stream subscribes its resource URIs on the key's inbox watch while it is open.
 */
export function serveModern<C extends ClosableClient>(s: HttpState<C>, o: Opening): Promise<void> {
  return withAcceptedKey(s, o, async (me) => {
    const lease = s.clients.acquire(o.cred.owner, o.cred.apiKey, undefined, me);
    o.res.once('close', () => lease.release());
    const server = await readyServer(s, o, lease.client, () => undefined);
    if (!server) return;
    server.openModern();
    const key = modernKey(s, o.cred.owner, lease.client, server);
    const body = o.body as { id?: string | number; method?: string };
    const uris = body.method === 'subscriptions/listen' ? listenUris(body) : [];
    if (key.listens && uris.length > 0) {
      // The stream's URIs are watched until its response closes.
      const opened = await openListen(key.listens, uris, MAX_SUBSCRIPTIONS);
      if ('refused' in opened) return send(o.res, 200, { jsonrpc: '2.0', id: body.id ?? null, error: opened.refused });
      o.res.once('close', () => void opened.stop());
    }
    const auth: AuthInfo = { token: o.cred.owner, clientId: 'reply-inbox-mcp', scopes: [], extra: { [SERVER]: server } };
    (o.req as { auth?: AuthInfo }).auth = auth;
    await (body.method === 'subscriptions/listen' ? key.streams : key.calls).node(o.req, o.res, o.body);
  });
}

/** The key's handler, made at its first 2026 request and again if its client was replaced since. */
function modernKey<C extends ClosableClient>(s: HttpState<C>, owner: string, client: C, server: InboxServer): ModernKey<C> {
  const known = s.modern.get(owner);
  if (known && known.client === client) return known;
  if (known) closeKey(s, owner, known);
  const bus = new InMemoryServerEventBus((err) => s.o.log.debug({ err }, 'listen stream event failed'));
  const served = (maxSubscriptions?: number): Served => {
    const handler = createMcpHandler(serverOfRequest, {
      legacy: 'reject',
      bus,
      maxRequestBodySize: s.maxBody,
      ...(maxSubscriptions !== undefined ? { maxSubscriptions } : {}),
      onerror: (err) => s.o.log.debug({ err }, '2026-07-28 request failed in the SDK'),
    });
    return { handler, node: toNodeHandler(handler, { maxRequestBodySize: s.maxBody }) };
  };
  const perKey = Number.isFinite(s.perKey) ? s.perKey : s.sessions.max;
  // A key's listen streams are capped as its sessions are.
  const calls = served();
  const streams = served(perKey);
  const watch = s.o.watchOf?.(client);
  const listens = watch
    ? new KeyListens(
        new Subscriptions(
          async (p) => bus.publish({ kind: 'resource_updated', uri: p.uri, params: p }),
          watch,
          server.inboxAccess,
          s.o.log,
          MAX_SUBSCRIPTIONS * perKey,
        ),
      )
    : null;
  const entry: ModernKey<C> = { client, calls, streams, listens };
  s.modern.set(owner, entry);
  // Keys whose clients are gone take their handlers with them.
  for (const [o, k] of s.modern) if (!s.clients.has(o)) closeKey(s, o, k);
  return entry;
}

/** The server built for this request (serveModern), which the SDK's factory hands back. */
function serverOfRequest(ctx: McpRequestContext) {
  const made = ctx.authInfo?.extra?.[SERVER] as InboxServer | undefined;
  if (!made) throw new Error('a 2026-07-28 request reached the handler without its server');
  return made.mcp;
}

function closeKey<C extends ClosableClient>(s: HttpState<C>, owner: string, k: ModernKey<C>): void {
  s.modern.delete(owner);
  void k.streams.handler.close().catch(() => undefined);
  void k.calls.handler.close().catch(() => undefined);
  void k.listens?.subscriptions.close();
}

/** The drain begins: every listen stream ends now, with its empty result (the calls in flight go on). */
export async function endListenStreams<C extends ClosableClient>(s: HttpState<C>): Promise<void> {
  await Promise.all([...s.modern.values()].map((k) => k.streams.handler.close().catch(() => undefined)));
}

/** Shutdown, once the calls are answered: each key's handlers close. */
export async function closeModern<C extends ClosableClient>(s: HttpState<C>): Promise<void> {
  for (const [owner, k] of [...s.modern.entries()]) closeKey(s, owner, k);
}
