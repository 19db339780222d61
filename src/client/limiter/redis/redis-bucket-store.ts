import Bottleneck from 'bottleneck';
import { BUCKETS, type Bucket } from '../../../api/enums.js';
import { type Clock, type Timer, systemClock } from '../../../clock.js';
import { type BucketStore, type StoreContext, messageOf, updateSettings } from '../bucket-store.js';
import type { BucketState, LimitSource, LimiterOptions, Settlement } from '../types.js';
import { describedBuckets } from '../rate-headers.js';
import type { RedisLink } from './link.js';
import { sweepQueued } from './drain-sweep.js';
import { SharedBucket } from './shared-bucket.js';

/** How long a refill waits at most for the calls just settled to be freed in Redis. */
const FREE_WAIT_MS = 1_000;

export interface RedisBucketStoreOptions extends LimiterOptions {
  store: RedisLink;
  /** The key's tag in Redis (RedisLimitStore.tagOf): a hash of the key, never the key. */
  tag: string;
}

/**
 * The key's buckets and concurrency cap counted in Redis for every instance at once (bottleneck
 * clustering).
 *
 * What differs from the in-process store, and why:
 * - The reservoir is the shared truth; this instance moves it only by deltas (SharedBucket), and
 *   never takes a token past bottleneck (no fast path): every take is one of bottleneck's scripts.
 * - The refill after a window is claimed in Redis, so it happens once per window, not once
 *   per instance that saw the window turn.
 * - Every job carries an `expiration`: a process killed mid-request gives its tokens and its
 *   slot back after that long instead of holding them forever.
 */
export class RedisBucketStore implements BucketStore<SharedBucket> {
  readonly buckets: Readonly<Record<Bucket, SharedBucket>>;
  readonly jobOptions: Bottleneck.JobOptions;
  private readonly exhaustedNoted = new Set<Bucket>();
  private readonly unwatch: (() => void)[] = [];
  private closing: { at: number; timer: Timer } | null = null;
  private readonly clock: Clock;
  /** Calls settled whose tokens bottleneck has not freed yet (see settledFreed). */
  private readonly unfreed = new Set<Promise<void>>();
  private closed = false;
  private concurrencyLimiter: Bottleneck | null = null;
  private readonly onError = (e: unknown) => this.ctx.emit({ type: 'store_error', message: messageOf(e) });

  constructor(
    private readonly o: RedisBucketStoreOptions,
    private readonly ctx: StoreContext,
  ) {
    this.clock = o.clock ?? systemClock;
    const caps = o.caps ?? {};
    const now = () => this.clock.now();
    const make = (b: Bucket) => new SharedBucket(b, o.figures[b], caps[b] ?? Number.POSITIVE_INFINITY, o.store, o.tag, this.onError, now);
    this.buckets = { read: make('read'), write: make('write'), upstream: make('upstream'), thread: make('thread') };
    this.jobOptions = { expiration: o.store.jobExpirationMs };
    for (const b of Object.values(this.buckets)) {
      b.limiter.on('depleted', () => {
        // Nobody may answer again in this window: the refill must come from our own timer.
        this.ctx.window.ensureTimer();
        this.noteExhausted(b);
      });
      this.watchLoss(o.store.limiterId(o.tag, b.bucket), () => this.afterLoss(b));
    }
    this.unwatch.push(o.store.onDown((reason) => ctx.down(reason)));
    this.unwatch.push(sweepQueued(() => this.limiters, o.store.heartbeatMs, this.onError));
  }

  /** The key's clustered limiters: its buckets, and its concurrency cap once made. */
  private get limiters(): Bottleneck[] {
    const all = Object.values(this.buckets).map((b) => b.limiter);
    return this.concurrencyLimiter ? [...all, this.concurrencyLimiter] : all;
  }

  concurrency(maxConcurrent: number): Bottleneck {
    const c = new Bottleneck({
      id: this.o.store.limiterId(this.o.tag, 'concurrency'),
      connection: this.o.store.connection,
      maxConcurrent,
      heartbeatInterval: this.o.store.heartbeatMs,
      timeout: this.o.store.idleMs,
    });
    c.on('error', this.onError);
    this.concurrencyLimiter = c;
    this.watchLoss(this.o.store.limiterId(this.o.tag, 'concurrency'), () => updateSettings(c, { maxConcurrent: this.ctx.maxConcurrent() }));
    return c;
  }

  /** Settings kept in Redis outlive a configuration change (bottleneck keeps them at init): ours are written again. */
  async start(concurrency: Bottleneck, maxConcurrent: number): Promise<void> {
    try {
      await concurrency.ready();
      await updateSettings(concurrency, { maxConcurrent });
      await Promise.all(Object.values(this.buckets).map((b) => b.start()));
    } catch (e) {
      this.onError(e);
    }
  }

  takeNow(): boolean {
    return false;
  }

  beforeQueue(): void {}

  refused(b: SharedBucket): void {
    this.noteExhausted(b);
  }

  taken(b: SharedBucket): void {
    b.outstanding++;
  }

  giveBack(b: SharedBucket): void {
    b.outstanding--;
    void b.giveBack().catch(this.onError);
  }

  short(): undefined {
    return undefined;
  }

  refillAt(b: SharedBucket): number | null {
    // Only a bucket a 429 emptied is known to be empty for everyone until the turn.
    return b.drained ? this.ctx.window.turnsAt : null;
  }

  settle(spent: readonly SharedBucket[], s: Settlement): () => void {
    for (const b of spent) b.outstanding--;
    this.countLanded(spent, s);
    let freed!: () => void;
    const free = new Promise<void>((resolve) => (freed = resolve));
    this.unfreed.add(free);
    void this.book(spent, s).catch(this.onError);
    return () => {
      this.unfreed.delete(free);
      freed();
    };
  }

  /**
   * Until the calls settled so far are freed in Redis: a refill reading the jobs still running
   * before then would find them running and counted as landed too, and leave a token unused.
   * At most FREE_WAIT_MS, should Redis not answer.
   */
  private async settledFreed(): Promise<void> {
    if (this.unfreed.size === 0) return;
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, FREE_WAIT_MS);
      timer.unref();
    });
    await Promise.race([Promise.all([...this.unfreed]), late]);
    clearTimeout(timer);
  }

  /**
   * Every request the API counted is counted in Redis by the window it landed in (a lost one,
   * which may have been counted, by the time it was lost), before its job frees its token: the
   * refill that opens a window subtracts the requests that landed in it and finished before the
   * refill, which the requests still running no longer show (a call sent after the window's end
   * on a token left over, while the timers that void and refill are late).
   */
  private countLanded(spent: readonly SharedBucket[], s: Settlement): void {
    if (s.kind === 'not_sent' || (s.kind === 'response' && s.status === 429)) return;
    const end = s.kind === 'response' && s.info.resetMs !== undefined ? s.info.resetMs : this.clock.now();
    for (const b of spent) this.o.store.countLanded(this.o.tag, b.bucket, end);
  }

  private async book(spent: readonly SharedBucket[], s: Settlement): Promise<void> {
    if (s.kind === 'not_sent') {
      await Promise.all(spent.map((b) => b.giveBack()));
      return;
    }
    // A lost request may have been counted: assume so, as the in-process store does.
    if (s.kind === 'lost') return;
    const { info, status, code } = s;
    const { window } = this.ctx;
    const placed = window.place(info.resetMs);
    if (window.end !== null) this.voidAt(window.end);
    const named = new Set(
      describedBuckets(
        spent.map((b) => b.bucket),
        info,
        (b) => this.buckets[b].serverLimit,
      ),
    );
    const counted = status !== 429 && placed === 'current';
    // A header of a window that already ended by our clock must not clamp the next one, which another instance may have refilled.
    const open = info.resetMs === undefined || this.clock.now() < info.resetMs;
    const drained = status === 429 && code !== 'too_many_concurrent' ? (named.size > 0 ? spent.filter((b) => named.has(b.bucket)) : [...spent]) : [];
    const work: Promise<unknown>[] = [];
    for (const b of spent) {
      const describes = named.has(b.bucket) && placed === 'current';
      if (describes && info.limit !== undefined && info.limit > 0) {
        work.push(
          b
            .setLimit(info.limit, 'header')
            .then((changed) => changed && this.ctx.emit({ type: 'limit_changed', bucket: b.bucket, limit: b.limit, source: 'header' })),
        );
      }
      if (drained.includes(b)) {
        b.drained = true;
        work.push(b.clampTo(0));
      } else if (!counted) work.push(b.giveBack());
      else if (describes && open && info.remaining !== undefined) {
        b.noteRemaining(info.remaining, info.resetMs);
        work.push(b.clampTo(info.remaining));
      }
    }
    if (status === 429 && code === 'too_many_concurrent') this.ctx.emit({ type: 'too_many_concurrent', retryAfter: info.retryAfter });
    for (const b of drained)
      this.ctx.emit({
        type: 'rate_limited',
        bucket: named.size > 0 ? b.bucket : null,
        retryAfter: info.retryAfter,
        refillAt: window.turnsAt ?? this.clock.now(),
      });
    if (drained.length) window.ensureTimer();
    await Promise.all(work);
  }

  /**
   * When the server's window ends, the tokens it left unused are void: empty the buckets then,
   * so that calls wait for the refill (which comes a margin later) instead of spending the old
   * window's leftovers in the new one. A call that takes one anyway, this timer being late, is
   * still counted by the refill (countLanded). Only for a window still running by our clock: a
   * late answer must not empty the next one.
   */
  private voidAt(end: number): void {
    const now = this.clock.now();
    if (this.closed || this.closing?.at === end || now >= end) return;
    if (this.closing) this.clock.clearTimeout(this.closing.timer);
    const timer = this.clock.setTimeout(() => {
      this.closing = null;
      void Promise.all(Object.values(this.buckets).map((b) => b.clampTo(0))).catch(this.onError);
    }, end - now);
    timer.unref();
    this.closing = { at: end, timer };
  }

  private noteExhausted(b: SharedBucket): void {
    if (this.exhaustedNoted.has(b.bucket)) return;
    this.exhaustedNoted.add(b.bucket);
    this.ctx.emit({ type: 'exhausted', bucket: b.bucket, queued: b.queued(), refillAt: this.ctx.window.turnsAt });
  }

  /**
   * The server's window turned. One instance refills the shared buckets for everyone: the
   * first to claim this window's turn in Redis. A turn with no known window (a server that
   * sends no reset) is named by the fallback period it falls in.
   */
  turn(ended: number | null): void {
    void this.claimTurn(ended);
  }

  private async claimTurn(ended: number | null): Promise<void> {
    if (this.closed) return;
    this.exhaustedNoted.clear();
    for (const b of Object.values(this.buckets)) b.drained = false;
    const period = Math.floor(this.clock.now() / this.o.fallbackWindowMs);
    const id = ended !== null ? `w${ended}` : `f${period}`;
    try {
      await this.settledFreed();
      if (this.closed) return;
      const mine = await this.o.store.claimTurn(this.o.tag, id);
      if (mine) await this.refill(ended ?? period * this.o.fallbackWindowMs);
      this.ctx.emit({ type: 'refill', buckets: [...BUCKETS], windowEnd: ended, shared: mine ? 'performed' : 'done_elsewhere' });
    } catch (e) {
      this.onError(e);
    }
    // Calls still queued behind an empty bucket need a next turn even if no header comes.
    if (Object.values(this.buckets).some((b) => b.queued() > 0)) this.ctx.window.ensureTimer();
  }

  /**
   * Refill every bucket for the window after `ended`: the limit, less the requests still out,
   * less those that already landed after `ended` (read after the ones still out, so a request
   * is seen running, or counted as landed, or both; never neither).
   */
  private async refill(ended: number): Promise<void> {
    const buckets = Object.values(this.buckets);
    const reads = await Promise.all(buckets.map((b) => b.beforeRefill()));
    const landed = await this.o.store.landedAfter(this.o.tag, ended);
    await Promise.all(buckets.map((b, i) => b.refill(reads[i]!, landed[b.bucket] ?? 0)));
  }

  /**
   * A bucket re-created after a loss starts full, though the server's window may be nearly
   * spent: clamp it to what the last answer of this window said was left, less the requests
   * that may be under way. With no answer of the running window known, it stays as created:
   * emptying it then could leave it empty with no answer ever coming to tell when to refill.
   * Either way the move publishes the capacity to every instance's queued calls.
   */
  private async afterLoss(b: SharedBucket): Promise<void> {
    const hint = b.remainingHint();
    if (hint === null) await b.limiter.incrementReservoir(0);
    else await b.clampTo(Math.max(0, hint - this.ctx.maxConcurrent()));
  }

  /**
   * bottleneck re-creates a limiter's lost state when one of its own calls meets the loss, but
   * nothing tells the calls already queued, in any instance, that capacity is back: a script
   * that publishes it (increment_reservoir, update_settings) does. At most one nudge a second.
   */
  private watchLoss(id: string, nudge: () => Promise<unknown>): void {
    let last = 0;
    this.unwatch.push(
      this.o.store.onLost(id, () => {
        const now = Date.now();
        if (this.closed || now - last < 1_000) return;
        last = now;
        // Let bottleneck's recovery of the call that met the loss run first.
        setTimeout(() => void nudge().catch(this.onError), 50).unref();
      }),
    );
  }

  setLimit(b: SharedBucket, limit: number, source: LimitSource): void {
    void b.setLimit(limit, source).then((changed) => changed && this.ctx.emit({ type: 'limit_changed', bucket: b.bucket, limit, source }), this.onError);
  }

  bucketState(b: SharedBucket): BucketState {
    return {
      bucket: b.bucket,
      limit: b.limit,
      limitSource: b.limitSource,
      available: b.lastSeen,
      outstanding: b.outstanding,
      queued: b.queued(),
      drained: b.drained,
    };
  }

  unavailable(): string | null {
    return this.o.store.unavailable();
  }

  /** Drop the calls still queued and leave Redis; the store's connection stays open for other keys. */
  async close(concurrency: Bottleneck): Promise<void> {
    this.closed = true;
    if (this.closing) this.clock.clearTimeout(this.closing.timer);
    for (const stop of this.unwatch.splice(0)) stop();
    await Promise.all([
      ...Object.values(this.buckets).map((b) => b.stop()),
      concurrency
        .stop({ dropWaitingJobs: true })
        .catch(() => undefined)
        .then(() => concurrency.disconnect(false)),
    ]);
  }
}
