import type { CallResult, LimiterEvent } from '../../../client/index.js';
import type { Me } from '../../../api/resources.js';

export interface ClosableClient {
  close(): Promise<void>;
}

interface Entry<C> {
  client: C;
  users: number;
  linger: NodeJS.Timeout | null;
  /** The sessions of this key that hear its limiter (a bucket throttling, a 429). */
  listeners: Set<(e: LimiterEvent) => void>;
}

export interface Lease<C> {
  client: C;
  release(): void;
}

/**
 * One API client per key, shared by that key's sessions and never by another key's: the
 * key's buckets are counted once however many sessions use it. A client outlives its last
 * session for a while, so a client that reconnects finds its limiter and cache warm; at
 * `maxKeys` the longest-unused of those lingering clients is closed to make room.
 */
export class KeyClients<C extends ClosableClient> {
  private readonly entries = new Map<string, Entry<C>>();

  constructor(
    private readonly make: (apiKey: string, onEvent: (e: LimiterEvent) => void, me?: CallResult<Me>) => C,
    private readonly lingerMs = 60_000,
    private readonly maxKeys = Number.POSITIVE_INFINITY,
  ) {}

  /** Whether this key has a client now (the API accepted it). */
  has(owner: string): boolean {
    return this.entries.has(owner);
  }

  /**
   * `owner` identifies the key (a hash of it); `listener` hears the key's limiter events until
   * release; `me` is the key's GET /v1/me answer when it was just read.
   */
  acquire(owner: string, apiKey: string, listener?: (e: LimiterEvent) => void, me?: CallResult<Me>): Lease<C> {
    let entry = this.entries.get(owner);
    if (!entry) {
      if (this.entries.size >= this.maxKeys) this.evictOneLingering();
      const listeners = new Set<(e: LimiterEvent) => void>();
      const fanOut = (e: LimiterEvent) => {
        for (const l of listeners) l(e);
      };
      entry = { client: this.make(apiKey, fanOut, me), users: 0, linger: null, listeners };
      this.entries.set(owner, entry);
    } else {
      // Most recently used last: the eviction below takes the first lingering entry.
      this.entries.delete(owner);
      this.entries.set(owner, entry);
    }
    const e = entry;
    if (e.linger) clearTimeout(e.linger);
    e.linger = null;
    e.users++;
    if (listener) e.listeners.add(listener);
    let released = false;
    return {
      client: e.client,
      release: () => {
        if (released) return;
        released = true;
        if (listener) e.listeners.delete(listener);
        if (--e.users > 0) return;
        e.linger = setTimeout(() => {
          if (e.users === 0 && this.entries.get(owner) === e) this.close(owner, e);
        }, this.lingerMs);
        e.linger.unref();
      },
    };
  }

  /** A key the API refused: its client goes now if no session uses it, not after the linger. */
  drop(owner: string): void {
    const e = this.entries.get(owner);
    if (!e || e.users > 0) return;
    this.close(owner, e);
  }

  private evictOneLingering(): void {
    for (const [owner, e] of this.entries) {
      if (e.users === 0) {
        this.close(owner, e);
        return;
      }
    }
  }

  private close(owner: string, e: Entry<C>): void {
    if (e.linger) clearTimeout(e.linger);
    this.entries.delete(owner);
    void e.client.close().catch(() => undefined);
  }

  /** Keys with a client now. */
  get size(): number {
    return this.entries.size;
  }

  async closeAll(): Promise<void> {
    const all = [...this.entries.values()];
    this.entries.clear();
    for (const e of all) if (e.linger) clearTimeout(e.linger);
    await Promise.all(all.map((e) => e.client.close().catch(() => undefined)));
  }
}
