import type { LimiterEvent } from '../../../client/index.js';

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
 * session for a while, so a client that reconnects finds its limiter and cache warm.
 */
export class KeyClients<C extends ClosableClient> {
  private readonly entries = new Map<string, Entry<C>>();

  constructor(
    private readonly make: (apiKey: string, onEvent: (e: LimiterEvent) => void) => C,
    private readonly lingerMs = 60_000,
  ) {}

  /** `owner` identifies the key (a hash of it); `listener` hears the key's limiter events until release. */
  acquire(owner: string, apiKey: string, listener?: (e: LimiterEvent) => void): Lease<C> {
    let entry = this.entries.get(owner);
    if (!entry) {
      const listeners = new Set<(e: LimiterEvent) => void>();
      entry = { client: this.make(apiKey, (e) => {
        for (const l of listeners) l(e);
      }), users: 0, linger: null, listeners };
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
          if (e.users > 0 || this.entries.get(owner) !== e) return;
          this.entries.delete(owner);
          void e.client.close().catch(() => undefined);
        }, this.lingerMs);
        e.linger.unref();
      },
    };
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
