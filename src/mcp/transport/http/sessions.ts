import type { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { InboxServer } from '../../server.js';

export interface Session {
  id: string;
  /** Who opened it (a hash of the key, or the token): only the same caller may use it. */
  owner: string;
  transport: StreamableHTTPServerTransport;
  server: InboxServer;
  lastSeen: number;
  /** Requests of this session not yet answered: a busy session is never evicted. */
  busy: number;
}

/**
 * The MCP sessions this instance holds, under a cap: each is an InboxServer with its own
 * transport, so a crowd of idle clients cannot exhaust the process. Places are reserved
 * before a session is built, so concurrent initializes cannot overshoot the cap.
 */
export class Sessions {
  private readonly byId = new Map<string, Session>();
  private pending = 0;
  private readonly sweeper: NodeJS.Timeout;

  constructor(
    readonly max: number,
    private readonly idleMs: number,
  ) {
    this.sweeper = setInterval(() => this.sweep(), Math.min(60_000, Math.max(1_000, idleMs / 4)));
    this.sweeper.unref();
  }

  /** Hold a place for a session about to be built; false when the cap is reached. */
  reserve(): boolean {
    if (this.byId.size + this.pending >= this.max) return false;
    this.pending++;
    return true;
  }

  /** The place was not used (the build failed or the client never completed initialize). */
  unreserve(): void {
    this.pending = Math.max(0, this.pending - 1);
  }

  /** The reserved place becomes this session. */
  add(s: Session): void {
    this.unreserve();
    this.byId.set(s.id, s);
  }

  get(id: string): Session | undefined {
    return this.byId.get(id);
  }

  remove(id: string | undefined): void {
    if (id !== undefined) this.byId.delete(id);
  }

  get size(): number {
    return this.byId.size;
  }

  /**
   * Make room for one more session of `owner` under its cap `perOwner`: close its
   * longest-idle sessions (none with a request under way). False when they are all busy.
   */
  async makeRoomFor(owner: string, perOwner: number): Promise<boolean> {
    const own = [...this.byId.values()].filter((s) => s.owner === owner);
    const idle = own.filter((s) => s.busy === 0).sort((a, b) => a.lastSeen - b.lastSeen);
    const excess = own.length - perOwner + 1;
    if (excess <= 0) return true;
    if (idle.length < excess) return false;
    for (const s of idle.slice(0, excess)) {
      this.byId.delete(s.id);
      await s.transport.close().catch(() => undefined);
    }
    return true;
  }

  /** Sessions whose client went away without DELETE would otherwise live for ever. */
  private sweep(): void {
    const cutoff = Date.now() - this.idleMs;
    for (const s of this.byId.values()) if (s.lastSeen < cutoff) void s.transport.close();
  }

  async closeAll(): Promise<void> {
    clearInterval(this.sweeper);
    const all = [...this.byId.values()];
    await Promise.all(all.map((s) => s.transport.close().catch(() => undefined)));
    this.byId.clear();
  }
}
