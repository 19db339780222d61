import type { McpServer, LoggingLevel } from '@modelcontextprotocol/server';
import type { Logger } from 'pino';
import type { LimiterEvent } from '../client/index.js';
import { type Clock, systemClock } from '../clock.js';

const TO_PINO: Record<LoggingLevel, 'debug' | 'info' | 'warn' | 'error' | 'fatal'> = {
  debug: 'debug',
  info: 'info',
  notice: 'info',
  warning: 'warn',
  error: 'error',
  critical: 'fatal',
  alert: 'fatal',
  emergency: 'fatal',
};
/** ClientLog made before a client is connected wait for it, up to this many. */
const MAX_PENDING = 20;
/** The same throttling message is not repeated within this window: one per burst is enough. */
const REPEAT_MS = 10_000;

/** A request's own log: the SDK sends at most what the request's level lets through. */
export type RequestLog = (level: LoggingLevel, data: Record<string, unknown>) => Promise<void>;

interface LogEntry {
  level: LoggingLevel;
  message: string;
  fields: Record<string, unknown>;
}

/**
 * Notable events (throttling, an upstream failure, tools hidden) told twice: to stderr
 * and to the MCP client as notifications/message. The SDK drops messages below the level
 * the client set with logging/setLevel; it keeps that level per session, so each send
 * names this connection's session.
 */
export class ClientLog {
  private pending: LogEntry[] = [];
  private lastSent = new Map<string, number>();
  /**
   * Revision 2026-07-28 has no message the client did not ask for: a message goes to the requests
   * being answered now, each at the level its own `_meta` asks for (none when it names none).
   * Null while serving a 2025 session.
   */
  private requests: Set<RequestLog> | null = null;

  constructor(
    private readonly mcp: McpServer,
    private readonly log: Logger,
    /** What the repeat window is counted on. */
    private readonly clock: Pick<Clock, 'now'> = systemClock,
  ) {}

  send(level: LoggingLevel, message: string, fields: Record<string, unknown> = {}, repeatKey?: string): void {
    if (repeatKey !== undefined) {
      const now = this.clock.now();
      if (now - (this.lastSent.get(repeatKey) ?? -Infinity) < REPEAT_MS) return;
      this.lastSent.set(repeatKey, now);
    }
    this.log[TO_PINO[level]](fields, message);
    const entry = { level, message, fields };
    if (this.mcp.isConnected()) this.deliver(entry);
    else if (this.pending.length < MAX_PENDING) this.pending.push(entry);
  }

  /** Once the client finished its handshake: what happened before it could listen. */
  flush(): void {
    const waiting = this.pending;
    this.pending = [];
    for (const n of waiting) this.deliver(n);
  }

  /** Forget what waits for a handshake that will not come (it is in the log already). */
  drop(): void {
    this.pending = [];
  }

  /** Serving revision 2026-07-28: messages go to the requests under way (during), never on their own. */
  perRequest(): void {
    this.requests ??= new Set();
  }

  /** While `run` answers a request, its log hears the messages (2026-07-28 only; a 2025 session hears them anyway). */
  async during<T>(log: RequestLog, run: () => Promise<T>): Promise<T> {
    const requests = this.requests;
    requests?.add(log);
    try {
      return await run();
    } finally {
      requests?.delete(log);
    }
  }

  /** The client's limiter told us a bucket is spent or the API answered 429. */
  limiter(e: LimiterEvent): void {
    const n = limiterLogEntry(e);
    if (n) this.send(n.level, n.message, n.fields, `${e.type}:${'bucket' in e ? e.bucket : ''}`);
  }

  private deliver(n: LogEntry): void {
    const data = { message: n.message, ...n.fields };
    if (this.requests) {
      for (const log of this.requests) void log(n.level, data).catch(() => undefined);
      return;
    }
    const server = this.mcp.server;
    void server
      .sendLoggingMessage({ level: n.level, logger: 'reply-inbox-mcp', data: { message: n.message, ...n.fields } }, server.transport?.sessionId)
      .catch(() => undefined);
  }
}

/** Which limiter events a person watching the client should hear about. */
export function limiterLogEntry(e: LimiterEvent): LogEntry | null {
  const at = (ms: number | null | undefined) => (ms ? ` (refill at ${new Date(ms).toISOString()})` : '');
  switch (e.type) {
    case 'exhausted':
      return {
        level: 'warning',
        message: `Rate bucket '${e.bucket}' is spent for this window: ${e.queued > 0 ? `${e.queued} call(s) wait for the refill` : 'calls that need it wait for the refill, or are refused when it comes after their deadline'}${at(e.refillAt)}.`,
        fields: { event: 'throttled', bucket: e.bucket, queued: e.queued },
      };
    case 'rate_limited':
      return {
        level: 'warning',
        message: `The API answered 429 rate_limited${e.bucket ? ` on the '${e.bucket}' bucket` : ''}; calls wait for the refill${at(e.refillAt)}.`,
        fields: { event: 'rate_limited', bucket: e.bucket, retry_after: e.retryAfter ?? null },
      };
    case 'too_many_concurrent':
      return {
        level: 'warning',
        message: 'The API answered 429 too_many_concurrent; calls are retried after a pause.',
        fields: { event: 'too_many_concurrent', retry_after: e.retryAfter ?? null },
      };
    case 'header_clamped':
      return {
        level: 'notice',
        message: `The API's ${e.header} header (${e.value}) points further ahead than two rate windows; the client waits at most ${Math.round(e.boundMs / 1000)} seconds for it.`,
        fields: { event: 'header_clamped', header: e.header, bound_ms: e.boundMs },
      };
    default:
      return null;
  }
}
