import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { AuthFailures } from './auth-failures.js';
import { DEFAULT_MAX_BODY_BYTES } from './body.js';
import { type ClosableClient, KeyClients } from './clients.js';
import { drainHttp } from './drain.js';
import { endpointOf } from './endpoint-url.js';
import type { HttpHandle, HttpServeOptions } from './options.js';
import { router } from './route.js';
import { DEFAULT_IDLE_SESSION_MS, Sessions } from './sessions.js';
import type { HttpState } from './state.js';
import { InFlight } from '../in-flight.js';
import type { InboxServer } from '../../server.js';

export type { HttpHandle, HttpServeOptions } from './options.js';

/**
 * Serve MCP over Streamable HTTP at /mcp, one InboxServer per session (SSE responses, so
 * progress notifications reach the client), and GET /healthz for load balancers. The parts:
 * route.ts (what each request passes), open-session.ts (a session's life), drain.ts (shutdown).
 */
export async function serveHttp<C extends ClosableClient>(o: HttpServeOptions<C>): Promise<HttpHandle> {
  const state: HttpState<C> = {
    o,
    sessions: new Sessions<InboxServer>(o.maxSessions, o.idleSessionMs ?? DEFAULT_IDLE_SESSION_MS, o.now),
    // A key is held by its sessions or lingers after them: never more keys than sessions can use.
    clients: new KeyClients<C>(o.newClient, 60_000, o.maxSessions),
    failures: new AuthFailures(o.authFailuresPerMinute ?? 20),
    judging: new Map(),
    perKey: o.auth.kind === 'bearer' ? (o.maxSessionsPerKey ?? 10) : Number.POSITIVE_INFINITY,
    maxBody: o.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES,
    inFlight: new InFlight(),
    modern: new Map(),
    draining: false,
  };
  const server = createServer(router(state));
  server.listen(o.listen.port, o.listen.host);
  await once(server, 'listening');
  const addr = server.address() as AddressInfo;
  const endpoint = endpointOf(addr.address, addr.port, o.allowedHosts);
  let drained: Promise<void> | null = null;
  return {
    url: endpoint.url,
    listening: endpoint.listening,
    port: addr.port,
    sessions: () => state.sessions.size,
    drain: () => (drained ??= drainHttp(state, server)),
  };
}
