import type { Logger } from 'pino';
import type { CallResult, LimiterEvent } from '../../../client/index.js';
import type { Me } from '../../../api/resources.js';
import type { InboxServer } from '../../server.js';
import type { InboxWatch } from '../../live/inbox-watch.js';
import type { HttpAuth } from './auth.js';
import type { ClosableClient } from './clients.js';
import type { Listen } from './listen.js';

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
  /** Behind one reverse proxy: the client address is the last X-Forwarded-For entry. Default off. */
  trustProxy?: boolean;
  maxBodyBytes?: number;
  /** A session with no request and no open stream for this long is closed. Default 10 min. */
  idleSessionMs?: number;
  /** Time for session ages (idle timeout, handshake grace), read by the session table. Default Date.now; a test drives it. */
  now?: () => number;
  /** On drain, how long in-flight calls may take before everything is closed anyway. Default 30 s. */
  drainTimeoutMs?: number;
  /** The API client for one key; `onEvent` hears its limiter; `me` is its GET /v1/me answer when just read. */
  newClient(apiKey: string, onEvent: (e: LimiterEvent) => void, me?: CallResult<Me>): C;
  /**
   * Bearer mode: GET /v1/me for a key that has no client yet, built for nothing else (KeyProbe),
   * so a key the API refuses leaves nothing behind. Without it the full client asks.
   */
  probe?(apiKey: string): Promise<CallResult<Me>>;
  /** The MCP server of one session (2025) or one request (2026-07-28), over its key's client. */
  newServer(client: C): InboxServer;
  /** The key's inbox watch, when watching is on: 2026-07-28 listen streams subscribe on it. */
  watchOf?(client: C): InboxWatch | undefined;
  /** Extra facts for /healthz (e.g. the Redis connection's state); `unavailable` (a reason) makes it answer 503. */
  health?(): Record<string, unknown>;
  log: Logger;
}

export interface HttpHandle {
  /** The MCP endpoint as a client reaches it, e.g. http://127.0.0.1:8080/mcp (bound to 0.0.0.0, a loopback name). */
  url: string;
  /** Where it listens: "127.0.0.1:8080", or "all interfaces (0.0.0.0:8080)". */
  listening: string;
  port: number;
  sessions(): number;
  /** Refuse new work, let in-flight calls finish (up to drainTimeoutMs), then close every session and client. */
  drain(): Promise<void>;
}
