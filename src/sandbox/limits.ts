import { type Bucket, RATE_LIMITS } from '../api/enums.js';

export interface BucketState {
  bucket: Bucket;
  limit: number;
  remaining: number;
  /** Unix seconds at which the window resets. */
  reset: number;
  /** Milliseconds until then. */
  resetInMs: number;
}

/**
 * Fixed windows per key and bucket, aligned to the epoch so that `x-ratelimit-reset`
 * (whole Unix seconds) is exact whenever the window is a whole number of seconds.
 */
export class RateLimits {
  private readonly used = new Map<string, { window: number; count: number }>();
  private readonly inFlight = new Map<string, number>();
  private readonly peak = new Map<string, number>();
  private readonly refused = new Map<string, { rate_limited: number; too_many_concurrent: number }>();
  /** The time windows are counted in; a test may replace it to turn windows over when it chooses, not when the wall clock does. */
  clock: () => number = Date.now;

  constructor(
    private readonly windowMs: number,
    readonly enabled: boolean,
    private readonly limits: Record<Bucket, number> = {
      read: RATE_LIMITS.read,
      write: RATE_LIMITS.write,
      upstream: RATE_LIMITS.upstream,
      thread: RATE_LIMITS.thread,
    },
    readonly maxConcurrent: number = RATE_LIMITS.max_concurrent,
  ) {}

  private windowOf(now: number) {
    const index = Math.floor(now / this.windowMs);
    return { index, end: (index + 1) * this.windowMs };
  }

  state(who: string, bucket: Bucket, now = this.clock()): BucketState {
    const w = this.windowOf(now);
    const u = this.used.get(`${who}\u0000${bucket}`);
    const count = u && u.window === w.index ? u.count : 0;
    const limit = this.limits[bucket];
    return { bucket, limit, remaining: Math.max(0, limit - count), reset: Math.ceil(w.end / 1000), resetInMs: w.end - now };
  }

  /** Spend one request from each bucket, all or none. Returns the exhausted bucket, if any. */
  spend(who: string, buckets: readonly Bucket[], now = this.clock()): BucketState | null {
    if (!this.enabled) return null;
    const states = buckets.map((b) => this.state(who, b, now));
    const empty = states.find((s) => s.remaining === 0);
    if (empty) return empty;
    const w = this.windowOf(now);
    for (const b of buckets) {
      const id = `${who}\u0000${b}`;
      const u = this.used.get(id);
      if (u && u.window === w.index) u.count++;
      else this.used.set(id, { window: w.index, count: 1 });
    }
    return null;
  }

  /** The bucket to report in the headers: the one with the least left. */
  report(who: string, buckets: readonly Bucket[], now = this.clock()): BucketState {
    const states = buckets.map((b) => this.state(who, b, now));
    return states.reduce((a, b) => (b.remaining / b.limit < a.remaining / a.limit ? b : a));
  }

  /** The bucket to report for a request no key spent: the first it names, whole, in the current window. */
  unspent(buckets: readonly Bucket[], now = this.clock()): BucketState {
    // No key has the empty id, so nothing is ever spent under it.
    return this.state('', buckets[0] ?? 'read', now);
  }

  /** Take an in-flight slot; false when the key already has the maximum in flight. */
  enter(who: string): boolean {
    if (!this.enabled) return true;
    const n = this.inFlight.get(who) ?? 0;
    if (n >= this.maxConcurrent) return false;
    this.inFlight.set(who, n + 1);
    this.peak.set(who, Math.max(this.peak.get(who) ?? 0, n + 1));
    return true;
  }
  leave(who: string): void {
    if (!this.enabled) return;
    const n = (this.inFlight.get(who) ?? 1) - 1;
    if (n <= 0) this.inFlight.delete(who);
    else this.inFlight.set(who, n);
  }
  /** Requests of this key in flight right now. */
  inFlightNow(who: string): number {
    return this.inFlight.get(who) ?? 0;
  }
  /** The most requests of this key ever in flight at once, for tests of a client's concurrency cap. */
  peakInFlight(who: string): number {
    return this.peak.get(who) ?? 0;
  }
  /** Count a 429 answered to this key. */
  refuse(who: string, code: 'rate_limited' | 'too_many_concurrent'): void {
    const r = this.refused.get(who) ?? { rate_limited: 0, too_many_concurrent: 0 };
    r[code]++;
    this.refused.set(who, r);
  }
  /** The 429s answered to this key so far: what benchmarks and tests of a client's limiter count. */
  refusals(who: string): { rate_limited: number; too_many_concurrent: number } {
    return { ...(this.refused.get(who) ?? { rate_limited: 0, too_many_concurrent: 0 }) };
  }
  /** The per-minute figures this sandbox enforces (GET /v1/me reports them). */
  figures(): Readonly<Record<Bucket, number>> & { max_concurrent: number } {
    return { ...this.limits, max_concurrent: this.maxConcurrent };
  }
}
