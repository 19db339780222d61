import type { Server } from 'node:http';
import { Server as NetServer } from 'node:net';
import type { ClosableClient } from './clients.js';
import type { HttpState } from './state.js';
import { drainCalls } from '../in-flight.js';
import { closeModern, endListenStreams } from './modern.js';

/**
 * Shutdown: stop accepting connections and refuse new work, let the calls in flight finish; when
 * the drain's time is up, close the clients (every call still queued answers "cancelled before it
 * was sent", every call still at the API is cut), then close every session, every key's client
 * and every connection.
 *
 * Open connections are kept until then, idle keep-alive ones too: a request written on one during
 * the drain is answered 503 with Connection: close (the router), never dropped unanswered, which
 * http's own close() would do by closing idle connections at once.
 */
export async function drainHttp<C extends ClosableClient>(s: HttpState<C>, server: Server): Promise<void> {
  s.draining = true;
  NetServer.prototype.close.call(server);
  await endListenStreams(s);
  await drainCalls(s.inFlight, s.o.drainTimeoutMs ?? 30_000, () => s.clients.closeAll());
  await s.sessions.closeAll();
  await closeModern(s);
  await s.clients.closeAll();
  server.close();
  server.closeAllConnections();
}
