import type { Server } from 'node:http';
import type { ClosableClient } from './clients.js';
import type { HttpState } from './state.js';
import { drainCalls } from '../in-flight.js';
import { closeModern, endListenStreams } from './modern.js';

/**
 * Shutdown: stop accepting connections and refuse new work, let the calls in flight finish
 * (closing the clients when the wait runs out answers every call still queued behind a bucket
 * "cancelled before it was sent"), then close every session, every key's client and every connection.
 */
export async function drainHttp<C extends ClosableClient>(s: HttpState<C>, server: Server): Promise<void> {
  s.draining = true;
  server.close();
  server.closeIdleConnections();
  await endListenStreams(s);
  await drainCalls(s.inFlight, s.o.drainTimeoutMs ?? 30_000, () => s.clients.closeAll());
  await s.sessions.closeAll();
  await closeModern(s);
  await s.clients.closeAll();
  server.closeAllConnections();
}
