import Bottleneck from 'bottleneck';
import type { Bucket } from '../../api/enums.js';
import { type Clock, type Timer, systemClock } from '../../clock.js';
import { BucketAccount } from './bucket.js';
import type { BucketStore, StoreContext } from './bucket-store.js';
import { installFastYield } from './fast-yield.js';
import type { BucketState, LimitSource, LimiterOptions, Settlement } from './types.js';
import { type RateInfo, describedBuckets } from './rate-headers.js';

/**
 * The key's buckets counted in this process: one BucketAccount (a bottleneck reservoir and
 * the estimate that steers it) per bucket, refilled when the server's window turns.
 */
export class LocalBucketStore implements BucketStore<BucketAccount> {
  readonly buckets: Readonly<Record<Bucket, BucketAccount>>;
  readonly jobOptions = {};
  private readonly drainTimers = new Set<Timer>();
  private readonly clock: Clock;
  /** Buckets already reported exhausted in this window (one event per window, not one per call). */
  private readonly exhaustedNoted = new Set<Bucket>();

  constructor(
    private readonly o: LimiterOptions,
    private readonly ctx: StoreContext,
  ) {
    this.clock = o.clock ?? systemClock;
    const caps = o.caps ?? {};
    const make = (b: Bucket) => new BucketAccount(b, o.figures[b], caps[b]);
    this.buckets = { read: make('read'), write: make('write'), upstream: make('upstream'), thread: make('thread') };
    if (o.fastYield) for (const a of Object.values(this.buckets)) installFastYield(a.limiter);
  }

  concurrency(maxConcurrent: number): Bottleneck {
    const c = new Bottleneck({ maxConcurrent, id: 'reply-inbox-concurrency' });
    if (this.o.fastYield) installFastYield(c);
    return c;
  }

  async start(): Promise<void> {}

  takeNow(order: readonly BucketAccount[]): boolean {
    for (const a of order) if (a.available() <= 0) return false;
    for (const a of order) a.takeNow();
    return true;
  }

  beforeQueue(a: BucketAccount): void {
    a.queueing();
    this.noteExhausted(a);
  }

  refused(a: BucketAccount): void {
    this.noteExhausted(a);
  }

  taken(a: BucketAccount): void {
    a.take();
    this.noteIfWaited(a);
  }

  /**
   * The bucket is empty and calls wait for it: exhausted. Counted by the calls handed to the
   * bucket, not by bottleneck's queue, which a burst still being handed over has not reached.
   */
  private noteIfWaited(a: BucketAccount): void {
    if (a.available() <= 0 && a.waiting > 0) this.noteExhausted(a);
  }

  giveBack(a: BucketAccount): void {
    a.release();
  }

  short(held: readonly BucketAccount[]): BucketAccount | undefined {
    return held.find((a) => a.available() < 0);
  }

  refillAt(a: BucketAccount): number | null {
    if (a.available() > 0) return null;
    return a.refillsAt ?? this.ctx.window.turnsAt;
  }

  private noteExhausted(a: BucketAccount): void {
    if (a.available() > 0) return;
    this.ctx.window.ensureTimer();
    if (this.exhaustedNoted.has(a.bucket)) return;
    this.exhaustedNoted.add(a.bucket);
    this.ctx.emit({ type: 'exhausted', bucket: a.bucket, queued: a.waiting, refillAt: a.refillsAt ?? this.ctx.window.turnsAt });
  }

  settle(spent: readonly BucketAccount[], s: Settlement): undefined {
    if (s.kind === 'not_sent') {
      for (const a of spent) a.release();
      return;
    }
    if (s.kind === 'lost') {
      // It may have been counted: assume so, in the current window.
      for (const a of spent) a.settle(true);
      this.ensureTimerIfLow(spent);
      return;
    }
    const { info, status, code } = s;
    const window = this.ctx.window.place(info.resetMs);
    const named = new Set(
      describedBuckets(
        spent.map((a) => a.bucket),
        info,
        (b) => this.buckets[b].serverLimit,
      ),
    );
    const counted = status !== 429 && window === 'current';
    for (const a of spent) {
      const seen = named.has(a.bucket) && window === 'current' ? { limit: info.limit, remaining: info.remaining } : undefined;
      const before = a.limit;
      a.settle(counted, seen);
      if (a.limit !== before) this.ctx.emit({ type: 'limit_changed', bucket: a.bucket, limit: a.limit, source: 'header' });
    }
    if (status === 429 && code === 'too_many_concurrent') {
      this.ctx.emit({ type: 'too_many_concurrent', retryAfter: info.retryAfter });
    } else if (status === 429) {
      const until = this.drainUntil(info);
      const targets = named.size > 0 ? spent.filter((a) => named.has(a.bucket)) : spent;
      for (const a of targets) {
        a.drain(until);
        this.ctx.emit({ type: 'rate_limited', bucket: named.size > 0 ? a.bucket : null, retryAfter: info.retryAfter, refillAt: until });
      }
      this.scheduleUndrain(until);
    }
    // A header may show the window holds less than thought: the calls waiting for it wait for the refill.
    for (const a of spent) this.noteIfWaited(a);
    this.ensureTimerIfLow(spent);
  }

  /** When a drained bucket may be used again: retry-after, else the reset, else one second. */
  private drainUntil(info: RateInfo): number {
    const now = this.clock.now();
    if (info.retryAfter !== undefined) return now + info.retryAfter * 1000 + this.o.refillMarginMs;
    if (info.resetMs !== undefined && info.resetMs > now) return info.resetMs + this.o.refillMarginMs;
    return now + 1000;
  }

  private scheduleUndrain(until: number): void {
    const t = this.clock.setTimeout(
      () => {
        this.drainTimers.delete(t);
        const now = this.clock.now();
        const ended: Bucket[] = [];
        for (const a of Object.values(this.buckets)) {
          if (a.drained && (a.refillsAt ?? 0) <= now) {
            a.undrain(now);
            this.exhaustedNoted.delete(a.bucket);
            ended.push(a.bucket);
          }
        }
        if (ended.length) this.ctx.emit({ type: 'refill', buckets: ended, windowEnd: this.ctx.window.end });
      },
      Math.max(0, until - this.clock.now()),
    );
    t.unref();
    this.drainTimers.add(t);
  }

  private ensureTimerIfLow(spent: readonly BucketAccount[]): void {
    if (spent.some((a) => a.available() <= 0)) this.ctx.window.ensureTimer();
  }

  /** The server's window turned: every bucket starts again from its limit. */
  turn(): void {
    const now = this.clock.now();
    for (const a of Object.values(this.buckets)) a.refill(now);
    this.exhaustedNoted.clear();
    this.ctx.emit({ type: 'refill', buckets: Object.keys(this.buckets) as Bucket[], windowEnd: null });
    // Jobs still queued behind an empty bucket need the next refill even if no header comes.
    if (Object.values(this.buckets).some((a) => a.queued() > 0 && a.available() <= 0)) this.ctx.window.ensureTimer();
  }

  setLimit(a: BucketAccount, limit: number, source: LimitSource): void {
    if (a.setLimit(limit, source)) this.ctx.emit({ type: 'limit_changed', bucket: a.bucket, limit, source });
  }

  bucketState(a: BucketAccount): BucketState {
    return {
      bucket: a.bucket,
      limit: a.limit,
      limitSource: a.limitSource,
      available: a.available(),
      outstanding: a.outstanding,
      queued: a.queued(),
      drained: a.drained,
    };
  }

  unavailable(): null {
    return null;
  }

  async close(concurrency: Bottleneck): Promise<void> {
    for (const t of this.drainTimers) this.clock.clearTimeout(t);
    this.drainTimers.clear();
    await Promise.all([...Object.values(this.buckets).map((a) => a.stop()), concurrency.stop({ dropWaitingJobs: true })]);
  }
}
