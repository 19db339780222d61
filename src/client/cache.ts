import type { EndpointName, Names } from '../api/endpoints.js';

/**
 * Answers the spec lets a client keep for a while: GET /v1/me and GET /v1/capabilities
 * (short TTLs), and the campaign roster, which the service itself caches for 60 seconds
 * per workspace and serves from the scarce upstream bucket. Every cached answer reports
 * its age. Concurrent identical calls share one request (single flight).
 */
export type CacheTtls = Record<Names<'get_me' | 'get_capabilities' | 'list_campaigns'>, number>;

export const DEFAULT_CACHE_TTLS: CacheTtls = { get_me: 30_000, get_capabilities: 60_000, list_campaigns: 60_000 };

interface Entry<T> {
  value: T;
  storedAt: number;
  ttl: number;
}

export class ResponseCache<T> {
  private readonly entries = new Map<string, Entry<T>>();
  private readonly inFlight = new Map<string, Promise<T>>();

  constructor(
    private readonly ttls: Readonly<Record<string, number>>,
    private readonly clock: () => number = Date.now,
  ) {}

  /** 0 when the endpoint is not cached. */
  ttlOf(endpoint: EndpointName): number {
    return this.ttls[endpoint] ?? 0;
  }

  get(key: string): { value: T; ageSeconds: number } | undefined {
    const e = this.entries.get(key);
    if (!e) return undefined;
    const age = this.clock() - e.storedAt;
    if (age >= e.ttl) {
      this.entries.delete(key);
      return undefined;
    }
    return { value: e.value, ageSeconds: Math.floor(age / 1000) };
  }

  set(key: string, value: T, ttl: number): void {
    if (ttl > 0) this.entries.set(key, { value, storedAt: this.clock(), ttl });
  }

  /** Run `load` once for concurrent callers of the same key. */
  shared(key: string, load: () => Promise<T>): Promise<T> {
    const running = this.inFlight.get(key);
    if (running) return running;
    const p = load().finally(() => this.inFlight.delete(key));
    this.inFlight.set(key, p);
    return p;
  }

  /** Forget entries whose key starts with the prefix (e.g. me after a 401/403). */
  forget(prefix: string): void {
    for (const k of this.entries.keys()) if (k.startsWith(prefix)) this.entries.delete(k);
  }

  clear(): void {
    this.entries.clear();
  }
}
