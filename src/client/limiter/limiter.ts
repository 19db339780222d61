import { setTimeout as sleep } from 'node:timers/promises';
import type Bottleneck from 'bottleneck';
import { systemClock } from '../../clock.js';
import type { Bucket } from '../../api/enums.js';
import { type BucketStore, type StoreBucket, type StoreContext, messageOf, updateSettings } from './bucket-store.js';
import { LocalBucketStore } from './local-bucket-store.js';
import {
  Dropped,
  type LimiterEvent,
  type LimiterOptions,
  type LimiterState,
  LimiterUnavailable,
  type LimitSource,
  NoTokenInTime,
  PRIORITY_AGAIN,
  PRIORITY_HOLDING,
  PRIORITY_NEW,
  RANK,
  type RateFigures,
  type RateLimiter,
  type Settlement,
} from './types.js';
import { HeaderBound } from './header-bound.js';
import { RefillWait } from './refill-wait.js';
import { ServerWindow } from './server-window.js';

export * from './types.js';

/** Build the store a limiter counts in, given what the limiter shares with it. */
export type StoreFactory<B extends StoreBucket> = (ctx: StoreContext) => BucketStore<B>;

/** Where a queued call stands, and the tokens it holds. */
interface Queued<B> {
  phase: 'waiting' | 'sending' | 'cancelled';
  held: B[];
  /** The store's word to hear once the tokens of the call sent are freed. */
  freed?: () => void;
}

/** What a pass through the stages ends with: sent, stepped back, or dropped. */
type Step<T> = { value: T } | typeof STEP_BACK | Dropped;

/**
 * The key's rate buckets: one bottleneck reservoir per bucket, then one concurrency cap, in
 * that order, counted in a store (this process, or Redis for every instance). Scarce buckets
 * are passed first (upstream, thread, write, read), so a call that spends two buckets holds
 * the scarcer token the least.
 *
 * A call that finds every bucket with tokens, nobody waiting and a slot free takes its tokens
 * synchronously (the store keeps bottleneck's reservoirs in step) and is sent at once; any
 * other call queues through bottleneck. One slot count covers both paths.
 */
export class Limiter<B extends StoreBucket = StoreBucket> implements RateLimiter {
  private readonly store: BucketStore<B>;
  private readonly concurrency: Bottleneck;
  private readonly window: ServerWindow;
  private readonly started: Promise<void>;
  private maxConcurrent: number;
  private maxConcurrentSource: LimitSource = 'spec';
  private readonly concurrencyCap: number;
  private inFlight = 0;
  private peakInFlight = 0;
  private readonly sent = { atOnce: 0, queued: 0 };
  /** Calls on the queued path that have not been sent (or dropped) yet: the fast path waits its turn behind them. */
  private waiting = 0;
  /** Queued calls that got bottleneck's slot while fast-path calls filled the cap. */
  private readonly slotWaiters: (() => void)[] = [];
  /** Fail the queued calls now: the store went down. */
  private readonly failWaiting = new Set<(e: Error) => void>();
  private readonly refillWait: RefillWait<B>;
  private readonly headerBound: HeaderBound;
  private closed = false;
  private closing: Promise<void> | null = null;

  constructor(
    private readonly opts: LimiterOptions,
    makeStore?: StoreFactory<B>,
  ) {
    const caps = opts.caps ?? {};
    this.concurrencyCap = caps.max_concurrent ?? Number.POSITIVE_INFINITY;
    this.maxConcurrent = Math.min(opts.figures.max_concurrent, this.concurrencyCap);
    this.window = new ServerWindow({
      marginMs: opts.refillMarginMs,
      fallbackMs: opts.fallbackWindowMs,
      onTurn: (ended) => this.store.turn(ended),
      clock: opts.clock,
    });
    const ctx: StoreContext = {
      window: this.window,
      emit: (e) => this.emit(e),
      maxConcurrent: () => this.maxConcurrent,
      down: (reason) => this.storeDown(reason),
    };
    this.store = makeStore ? makeStore(ctx) : (new LocalBucketStore(opts, ctx) as unknown as BucketStore<B>);
    this.concurrency = this.store.concurrency(this.maxConcurrent);
    this.refillWait = new RefillWait(
      (b) => this.store.refillAt(b),
      (e) => this.emit(e),
    );
    this.headerBound = new HeaderBound(opts.fallbackWindowMs, opts.clock ?? systemClock, (e) => this.emit(e));
    this.started = this.store.start(this.concurrency, this.maxConcurrent);
  }

  private emit(e: LimiterEvent): void {
    this.opts.onEvent?.(e);
  }

  /** The store went down: every queued call is answered at once instead of waiting for its deadline. */
  private storeDown(reason: string): void {
    for (const fail of [...this.failWaiting]) fail(new LimiterUnavailable(reason));
  }

  /**
   * Run one exchange once every bucket gave a token and a concurrency slot is free. The
   * exchange never throws: it returns its value and how it settled. If the signal fires
   * while the call still waits, run() rejects with Dropped at once and the tokens held are
   * given back when the job surfaces.
   */
  run<T>(
    buckets: readonly Bucket[],
    signal: AbortSignal,
    exchange: () => Promise<{ value: T; settlement: Settlement }>,
    priority = PRIORITY_NEW,
    deadlineAt?: number,
  ): Promise<T> {
    if (signal.aborted) return Promise.reject(new Dropped());
    if (this.closed) return Promise.reject(new Dropped());
    const order = this.order(buckets);
    if (this.waiting === 0 && this.inFlight < this.maxConcurrent && this.store.takeNow(order)) {
      this.sent.atOnce++;
      return this.send(order, exchange, (freed) => freed());
    }
    const down = this.store.unavailable();
    if (down) return Promise.reject(new LimiterUnavailable(down));
    if (deadlineAt !== undefined) {
      for (const b of order) {
        const at = this.store.refillAt(b);
        if (at !== null && at > deadlineAt) {
          this.store.refused(b);
          return Promise.reject(new NoTokenInTime(b.bucket, at));
        }
      }
    }
    return this.queue(order, signal, exchange, priority);
  }

  private order(buckets: readonly Bucket[]): B[] {
    const bs = this.store.buckets;
    if (buckets.length === 1) return [bs[buckets[0]!]];
    return [...new Set(buckets)].map((b) => bs[b]).sort((a, b) => a.limit - b.limit);
  }

  /**
   * Send with the tokens held and a slot taken; the tokens are settled by the answer. What the
   * store wants to hear once they are freed goes to `afterFree` (at once: none is held by a job).
   */
  private async send<T>(
    spent: readonly B[],
    exchange: () => Promise<{ value: T; settlement: Settlement }>,
    afterFree: (freed: () => void) => void,
  ): Promise<T> {
    this.inFlight++;
    if (this.inFlight > this.peakInFlight) this.peakInFlight = this.inFlight;
    let outcome: { value: T; settlement: Settlement };
    try {
      outcome = await exchange();
    } finally {
      this.inFlight--;
      this.slotWaiters.shift()?.();
    }
    // Both stores book the answer's headers only once they are within reason.
    const freed = this.store.settle(spent, this.headerBound.clamp(outcome.settlement));
    if (freed) afterFree(freed);
    this.refillWait.check(this.inFlight, this.waiting);
    return outcome.value;
  }

  /** Wait, if fast-path calls hold every slot, until one is free (or the limiter closes: nothing is sent then). */
  private async slot(): Promise<void> {
    while (this.inFlight >= this.maxConcurrent && !this.closed) await new Promise<void>((resolve) => this.slotWaiters.push(resolve));
  }

  /** A call that waits in the buckets' queues: it takes a token of each bucket in turn, then a slot, then is sent. */
  private queue<T>(order: readonly B[], signal: AbortSignal, exchange: () => Promise<{ value: T; settlement: Settlement }>, priority: number): Promise<T> {
    const q: Queued<B> = { phase: 'waiting', held: [] };
    this.waiting++;
    return new Promise<T>((resolve, reject) => {
      const fail = (e: Error) => {
        // Once sent, the exchange itself ends with the abort and settles its tokens.
        if (q.phase !== 'waiting') return;
        q.phase = 'cancelled';
        reject(e);
      };
      const onAbort = () => fail(new Dropped());
      signal.addEventListener('abort', onAbort, { once: true });
      this.failWaiting.add(fail);
      this.attempts(q, order, signal, exchange, priority)
        .finally(() => {
          // Every job of the call is done: bottleneck freed its tokens.
          q.freed?.();
          if (q.phase !== 'sending') this.waiting--;
          signal.removeEventListener('abort', onAbort);
          this.failWaiting.delete(fail);
          this.refillWait.check(this.inFlight, this.waiting);
        })
        .then(resolve, reject);
    });
  }

  /** Queue through the stages until sent: again, ahead of fresh work, after a step back; again while a failed store may come back. */
  private async attempts<T>(
    q: Queued<B>,
    order: readonly B[],
    signal: AbortSignal,
    exchange: () => Promise<{ value: T; settlement: Settlement }>,
    priority: number,
  ): Promise<T> {
    await this.started;
    let prio = priority;
    for (;;) {
      let r: Step<T>;
      try {
        r = await this.stage(q, order, exchange, 0, prio);
      } catch (e) {
        // The store failed before the request was sent: give back what was taken and try again, while it may come back.
        this.releaseAll(q);
        if (this.closed || q.phase !== 'waiting') throw e;
        this.emit({ type: 'store_error', message: messageOf(e) });
        const down = this.store.unavailable();
        if (down) throw new LimiterUnavailable(down);
        await sleep(STORE_RETRY_MS, undefined, { signal }).catch(() => undefined);
        if (signal.aborted) throw new Dropped();
        continue;
      }
      if (r === STEP_BACK) {
        prio = PRIORITY_AGAIN;
        continue;
      }
      if (r instanceof Dropped) throw r;
      return r.value;
    }
  }

  /** Stage i: a token of bucket i (then the next stage), or past the last bucket, a slot and the send. */
  private stage<T>(
    q: Queued<B>,
    order: readonly B[],
    exchange: () => Promise<{ value: T; settlement: Settlement }>,
    i: number,
    prio: number,
  ): Promise<Step<T>> {
    const { store } = this;
    if (i < order.length) {
      const b = order[i]!;
      store.beforeQueue(b);
      const leave = this.refillWait.park(b);
      this.refillWait.check(this.inFlight, this.waiting);
      return scheduled(b.limiter, { ...store.jobOptions, priority: prio }, async (): Promise<Step<T>> => {
        leave();
        store.taken(b);
        q.held.push(b);
        if (q.phase === 'cancelled') {
          this.releaseAll(q);
          return new Dropped();
        }
        // Holding a scarcer token, the call goes ahead of fresh work so that token is not wasted waiting.
        return this.stage(q, order, exchange, i + 1, Math.min(prio, PRIORITY_HOLDING));
      }).finally(leave);
    }
    return scheduled(this.concurrency, { ...store.jobOptions, priority: prio }, async (): Promise<Step<T>> => {
      await this.slot();
      // Closed while it waited: the limiter's close() cancelled it, and nothing is sent after close.
      if (q.phase === 'cancelled' || this.closed) {
        this.slotWaiters.shift()?.();
        this.releaseAll(q);
        return new Dropped();
      }
      // A header may have shown since that the window holds fewer tokens than we took.
      const short = store.short(q.held);
      if (short) {
        this.emit({ type: 'step_back', bucket: short.bucket });
        this.slotWaiters.shift()?.();
        this.releaseAll(q);
        return STEP_BACK;
      }
      q.phase = 'sending';
      this.waiting--;
      this.sent.queued++;
      return { value: await this.send(q.held.splice(0), exchange, (freed) => (q.freed = freed)) };
    });
  }

  /** Give back every token a queued call holds. */
  private releaseAll(q: Queued<B>): void {
    for (const b of q.held.splice(0)) this.store.giveBack(b);
  }

  /** Limits learned from GET /v1/me (or set by the caller). */
  setFigures(figures: Partial<RateFigures>, source: LimitSource): void {
    for (const b of Object.values(this.store.buckets) as B[]) {
      const v = figures[b.bucket];
      if (v !== undefined && v > 0) this.store.setLimit(b, v, source);
    }
    const given = figures.max_concurrent;
    const mc = given === undefined ? undefined : Math.min(given, this.concurrencyCap);
    if (mc !== undefined && mc > 0 && mc !== this.maxConcurrent && RANK[source] >= RANK[this.maxConcurrentSource]) {
      this.maxConcurrent = mc;
      this.maxConcurrentSource = source;
      void updateSettings(this.concurrency, { maxConcurrent: mc }).catch((e: unknown) => this.emit({ type: 'store_error', message: messageOf(e) }));
      this.emit({ type: 'limit_changed', bucket: 'max_concurrent', limit: mc, source });
      // A higher cap frees slots that queued calls may be waiting for.
      while (this.slotWaiters.length && this.inFlight < this.maxConcurrent) this.slotWaiters.shift()!();
    }
  }

  limitOf(b: Bucket): number {
    return this.store.buckets[b].limit;
  }

  state(): LimiterState {
    return {
      buckets: (Object.values(this.store.buckets) as B[]).map((b) => this.store.bucketState(b)),
      inFlight: this.inFlight,
      peakInFlight: this.peakInFlight,
      maxConcurrent: this.maxConcurrent,
      sent: { ...this.sent },
      windowEnd: this.window.end,
    };
  }

  /**
   * Nothing is sent from now on: every call still waiting (for a token, or for a slot that calls
   * in flight hold) rejects with Dropped at once, before this returns its promise. Calls already
   * sent end with their exchanges; the promise waits for them and the store.
   */
  close(): Promise<void> {
    if (this.closing) return this.closing;
    this.closed = true;
    for (const fail of [...this.failWaiting]) fail(new Dropped());
    for (const wake of this.slotWaiters.splice(0)) wake();
    this.window.close();
    this.closing = this.store.close(this.concurrency);
    return this.closing;
  }
}

const STEP_BACK = Symbol('step back');
/** How long a call waits before trying again when the store itself failed (Redis restarting). */
const STORE_RETRY_MS = 250;

/**
 * Schedule a job; once its function has started, its own outcome is the result, whatever
 * bottleneck says afterwards (a Redis job's expiration passing, or Redis failing to free it).
 */
function scheduled<R>(limiter: Bottleneck, opts: Bottleneck.JobOptions, fn: () => Promise<R>): Promise<R> {
  let started: Promise<R> | null = null;
  return limiter
    .schedule(opts, () => {
      started = fn();
      return started;
    })
    .catch((e: unknown) => {
      if (started) return started;
      throw e;
    });
}
