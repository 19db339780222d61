import type { NodeStreamableHTTPServerTransport } from '@modelcontextprotocol/node';

/** What the session table needs of a session's server: how many subscriptions it holds. */
export interface SessionServer {
  readonly subscriptionCount: number;
}

export interface Session<S extends SessionServer = SessionServer> {
  id: string;
  /** Who opened it (a hash of the key, or the token): only the same caller may use it. */
  owner: string;
  transport: NodeStreamableHTTPServerTransport;
  server: S;
  lastSeen: number;
  /** Requests of this session not yet answered: a busy session is never evicted. */
  busy: number;
  /** Notification streams (GET) open now: with subscriptions, the client is listening. */
  streams: number;
  /** The client came back after its initialize answer (its initialized notification, or any request). */
  returned: boolean;
  /** Its SSE events kept for a resume: the sweep drops those past their time. */
  events?: { trim(): void };
}

/** Why no place was given: the caller's own cap, or the server's. */
export type Refusal = 'key' | 'server';

/** Default: a session with no request and no open stream for this long is closed (--idle-session-minutes). */
export const DEFAULT_IDLE_SESSION_MS = 10 * 60_000;
/** A session with subscriptions but no stream and no request for this long has gone: its polling stops. */
export const DEFAULT_STREAMLESS_MS = 2 * 60_000;
/**
 * A session whose client has not come back since its initialize answer is still being opened
 * for this long: its own key cannot take its place (else a burst of one key answers 200 to
 * initializes whose sessions are closed a moment later).
 */
export const HANDSHAKE_GRACE_MS = 10_000;
/** Retry-After of a refusal when every session in the way is busy or being opened. */
export const BUSY_RETRY_MS = 5_000;

/**
 * The MCP sessions this instance holds, under a cap and a cap per caller: each is an
 * InboxServer with its own transport, so a crowd of idle clients cannot exhaust the process.
 * Places are reserved (per caller) before a session is built, so a burst of concurrent
 * initializes is counted while it opens and cannot overshoot either cap. At a cap, the least
 * recently used idle session makes room before anyone is refused; a session listening on an
 * open stream with live subscriptions goes last. At either cap, room is made only with sessions
 * whose clients came back after initialize (or left them alone past HANDSHAKE_GRACE_MS): a 200
 * to initialize is a session its client can use.
 */
export class Sessions<S extends SessionServer = SessionServer> {
  private readonly byId = new Map<string, Session<S>>();
  private readonly opening = new Map<string, number>();
  private pending = 0;
  private readonly sweeper: NodeJS.Timeout;

  constructor(
    readonly max: number,
    readonly idleMs = DEFAULT_IDLE_SESSION_MS,
    readonly now: () => number = Date.now,
    private readonly streamlessMs = Math.min(DEFAULT_STREAMLESS_MS, idleMs),
    private readonly graceMs = HANDSHAKE_GRACE_MS,
  ) {
    this.sweeper = setInterval(() => this.sweep(), Math.min(30_000, Math.max(1_000, Math.min(idleMs, this.streamlessMs) / 4)));
    this.sweeper.unref();
  }

  /**
   * Hold a place for a session of `owner` about to be built, under `perOwner` (sessions held
   * and being opened) and the server's cap, closing least recently used idle sessions to make
   * room: the caller's own first, then anyone's when the server is full; never one still in its
   * handshake. Null when placed.
   */
  reserve(owner: string, perOwner = Number.POSITIVE_INFINITY): Refusal | null {
    const own = [...this.byId.values()].filter((s) => s.owner === owner);
    const ownExcess = own.length + (this.opening.get(owner) ?? 0) - perOwner + 1;
    const ownIdle = this.evictionOrder(own.filter((s) => !this.inHandshake(s)));
    if (ownExcess > 0 && ownIdle.length < ownExcess) return 'key';
    const victims = ownExcess > 0 ? ownIdle.slice(0, ownExcess) : [];
    if (this.byId.size - victims.length + this.pending >= this.max) {
      const other = this.evictionOrder([...this.byId.values()].filter((s) => !victims.includes(s) && !this.inHandshake(s)));
      if (other.length === 0) return 'server';
      victims.push(other[0]!);
    }
    for (const v of victims) this.evict(v);
    this.pending++;
    this.opening.set(owner, (this.opening.get(owner) ?? 0) + 1);
    return null;
  }

  /**
   * Seconds until a caller refused may find room: until the first session in the way (the
   * key's own when refused at its cap, anyone's when the server is full) leaves its handshake
   * grace, or BUSY_RETRY_MS when all are busy or being opened.
   */
  retryAfter(refusal: Refusal, owner: string): number {
    const t = this.now();
    const inWay = (s: Session<S>) => refusal === 'server' || s.owner === owner;
    const waits = [...this.byId.values()].filter((s) => inWay(s) && s.busy === 0 && this.inHandshake(s)).map((s) => s.lastSeen + this.graceMs - t);
    return Math.max(1, Math.ceil((waits.length > 0 ? Math.min(...waits) : BUSY_RETRY_MS) / 1000));
  }

  /** Opened, answered, and its client not back yet: still in its handshake. */
  private inHandshake(s: Session<S>): boolean {
    return !s.returned && this.now() - s.lastSeen < this.graceMs;
  }

  /** The place was not used (the build failed or the client never completed initialize). */
  unreserve(owner: string): void {
    this.pending = Math.max(0, this.pending - 1);
    const n = (this.opening.get(owner) ?? 0) - 1;
    if (n > 0) this.opening.set(owner, n);
    else this.opening.delete(owner);
  }

  /** The reserved place becomes this session. */
  add(s: Session<S>): void {
    this.unreserve(s.owner);
    this.byId.set(s.id, s);
  }

  get(id: string): Session<S> | undefined {
    return this.byId.get(id);
  }

  remove(id: string | undefined): void {
    if (id !== undefined) this.byId.delete(id);
  }

  get size(): number {
    return this.byId.size;
  }

  /** Idle sessions (no request under way), the first to close first: not listening, then least recently used. */
  private evictionOrder(list: Session<S>[]): Session<S>[] {
    const listening = (s: Session<S>) => (s.streams > 0 && s.server.subscriptionCount > 0 ? 1 : 0);
    return list.filter((s) => s.busy === 0).sort((a, b) => listening(a) - listening(b) || a.lastSeen - b.lastSeen);
  }

  private evict(s: Session<S>): void {
    this.byId.delete(s.id);
    void s.transport.close().catch(() => undefined);
  }

  /**
   * Sessions whose client went away without DELETE would otherwise live for ever: closed after
   * the idle timeout with no request and no open stream, or sooner when they hold subscriptions
   * with no stream to hear them (nothing can reach the client; polling for it is waste).
   */
  sweep(): void {
    const t = this.now();
    for (const s of [...this.byId.values()]) {
      s.events?.trim();
      if (s.busy > 0 || s.streams > 0) continue;
      const quiet = t - s.lastSeen;
      if (quiet >= this.idleMs || (s.server.subscriptionCount > 0 && quiet >= this.streamlessMs)) this.evict(s);
    }
  }

  async closeAll(): Promise<void> {
    clearInterval(this.sweeper);
    const all = [...this.byId.values()];
    this.byId.clear();
    await Promise.all(all.map((s) => s.transport.close().catch(() => undefined)));
  }
}
