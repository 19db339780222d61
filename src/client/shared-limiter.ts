import { setTimeout as sleep } from 'node:timers/promises';
import Bottleneck from 'bottleneck';
import { BUCKETS, type Bucket } from '../spec/index.js';
import { type LimitSource, RANK } from './bucket.js';
import {
  Dropped,
  type LimiterEvent,
  type LimiterOptions,
  type LimiterState,
  PRIORITY_HOLDING,
  PRIORITY_NEW,
  type RateFigures,
  type RateLimiter,
  type Settlement,
} from './limiter.js';
import { describedBuckets } from './rate-headers.js';
import type { RedisLimitStore } from './redis-store.js';
import { SharedBucket } from './shared-bucket.js';
import { ServerWindow } from './server-window.js';

export interface SharedLimiterOptions extends LimiterOptions {
  store: RedisLimitStore;
  /** The key's tag in Redis (RedisLimitStore.tagOf): a hash of the key, never the key. */
  tag: string;
}

/** How long a call waits before trying again when Redis itself failed (down, restarting). */
const STORE_RETRY_MS = 250;

/**
 * The key's buckets and concurrency cap shared by every instance through Redis (bottleneck
 * clustering): the same order as the in-process Limiter (scarce buckets first, then one of
 * the key's slots), but the tokens and slots are counted in Redis for all instances at once.
 *
 * What differs from the in-process accounts, and why:
 * - The reservoir is the shared truth; this instance moves it only by deltas (SharedBucket).
 * - The refill after a window is claimed in Redis, so it happens once per window, not once
 *   per instance that saw the window turn.
 * - Every job carries an `expiration`: a process killed mid-request gives its tokens and its
 *   slot back after that long instead of holding them forever.
 * - A job whose own work already ran keeps its result even if bottleneck's bookkeeping in
 *   Redis failed or expired after it (scheduled() below).
 */
export class SharedLimiter implements RateLimiter {
  private readonly buckets: Record<Bucket, SharedBucket>;
  private readonly concurrency: Bottleneck;
  private readonly window: ServerWindow;
  private readonly started: Promise<void>;
  private maxConcurrent: number;
  private maxConcurrentSource: LimitSource = 'spec';
  private readonly concurrencyCap: number;
  private inFlight = 0;
  private peakInFlight = 0;
  private closed = false;
  private readonly exhaustedNoted = new Set<Bucket>();
  private readonly unwatch: (() => void)[] = [];
  private closing: { at: number; timer: NodeJS.Timeout } | null = null;

  constructor(private readonly o: SharedLimiterOptions) {
    const caps = o.caps ?? {};
    const onError = (e: unknown) => this.emit({ type: 'store_error', message: messageOf(e) });
    const make = (b: Bucket) => new SharedBucket(b, o.figures[b], caps[b] ?? Number.POSITIVE_INFINITY, o.store, o.tag, onError);
    this.buckets = { read: make('read'), write: make('write'), upstream: make('upstream'), thread: make('thread') };
    this.concurrencyCap = caps.max_concurrent ?? Number.POSITIVE_INFINITY;
    this.maxConcurrent = Math.min(o.figures.max_concurrent, this.concurrencyCap);
    this.concurrency = new Bottleneck({
      id: o.store.limiterId(o.tag, 'concurrency'),
      connection: o.store.connection,
      maxConcurrent: this.maxConcurrent,
      heartbeatInterval: o.store.heartbeatMs,
      timeout: o.store.idleMs,
    });
    this.concurrency.on('error', onError);
    for (const b of Object.values(this.buckets)) {
      b.limiter.on('depleted', () => {
        // Nobody may answer again in this window: the refill must come from our own timer.
        this.window.ensureTimer();
        this.noteExhausted(b);
      });
    }
    this.window = new ServerWindow({ marginMs: o.refillMarginMs, fallbackMs: o.fallbackWindowMs, onTurn: (ended) => void this.turn(ended) });
    for (const b of Object.values(this.buckets)) this.watchLoss(o.store.limiterId(o.tag, b.bucket), () => this.afterLoss(b));
    this.watchLoss(o.store.limiterId(o.tag, 'concurrency'), () => updateSettings(this.concurrency, { maxConcurrent: this.maxConcurrent }));
    this.started = this.start();
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
    else await b.clampTo(Math.max(0, hint - this.maxConcurrent));
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
        setTimeout(() => void nudge().catch((e: unknown) => this.emit({ type: 'store_error', message: messageOf(e) })), 50).unref();
      }),
    );
  }

  /** Settings kept in Redis outlive a configuration change (bottleneck keeps them at init): ours are written again. */
  private async start(): Promise<void> {
    try {
      await this.concurrency.ready();
      await updateSettings(this.concurrency, { maxConcurrent: this.maxConcurrent });
      await Promise.all(Object.values(this.buckets).map((b) => b.start()));
    } catch (e) {
      this.emit({ type: 'store_error', message: messageOf(e) });
    }
  }

  private emit(e: LimiterEvent): void {
    this.o.onEvent?.(e);
  }

  run<T>(
    buckets: readonly Bucket[],
    signal: AbortSignal,
    exchange: () => Promise<{ value: T; settlement: Settlement }>,
    priority = PRIORITY_NEW,
  ): Promise<T> {
    if (signal.aborted) return Promise.reject(new Dropped());
    const order = [...new Set(buckets)].sort((a, b) => this.buckets[a].limit - this.buckets[b].limit);
    const expiration = this.o.store.jobExpirationMs;
    let phase: 'waiting' | 'sending' | 'cancelled' = 'waiting';
    const held: SharedBucket[] = [];
    const releaseAll = () => {
      for (const b of held.splice(0)) void b.giveBack().catch((e: unknown) => this.emit({ type: 'store_error', message: messageOf(e) }));
    };
    type Step = { value: T } | Dropped;

    const stage = (i: number, prio: number): Promise<Step> => {
      if (i < order.length) {
        const b = this.buckets[order[i]!];
        return scheduled(b.limiter, { priority: prio, expiration }, async (): Promise<Step> => {
          held.push(b);
          if (phase === 'cancelled') {
            releaseAll();
            return new Dropped();
          }
          return stage(i + 1, Math.min(prio, PRIORITY_HOLDING));
        });
      }
      return scheduled(this.concurrency, { priority: prio, expiration }, async (): Promise<Step> => {
        if (phase === 'cancelled') {
          releaseAll();
          return new Dropped();
        }
        const mine = held.splice(0);
        phase = 'sending';
        this.inFlight++;
        this.peakInFlight = Math.max(this.peakInFlight, this.inFlight);
        let outcome: { value: T; settlement: Settlement };
        try {
          outcome = await exchange();
        } finally {
          this.inFlight--;
        }
        void this.settle(mine, outcome.settlement).catch((e: unknown) => this.emit({ type: 'store_error', message: messageOf(e) }));
        return { value: outcome.value };
      });
    };

    return new Promise<T>((resolve, reject) => {
      const onAbort = () => {
        if (phase !== 'waiting') return;
        phase = 'cancelled';
        reject(new Dropped());
      };
      signal.addEventListener('abort', onAbort, { once: true });
      const loop = async (): Promise<T> => {
        await this.started;
        for (;;) {
          let r: Step;
          try {
            r = await stage(0, priority);
          } catch (e) {
            // Redis failed before the request was sent: give back what was taken and try again until the deadline.
            releaseAll();
            if (this.closed || phase !== 'waiting') throw e;
            this.emit({ type: 'store_error', message: messageOf(e) });
            await sleep(STORE_RETRY_MS, undefined, { signal }).catch(() => undefined);
            if (signal.aborted) throw new Dropped();
            continue;
          }
          if (r instanceof Dropped) throw r;
          return r.value;
        }
      };
      loop().then(
        (v) => {
          signal.removeEventListener('abort', onAbort);
          resolve(v);
        },
        (e) => {
          signal.removeEventListener('abort', onAbort);
          reject(e);
        },
      );
    });
  }

  /** Book the answer of one exchange against the shared buckets it spent. */
  private async settle(spent: readonly SharedBucket[], s: Settlement): Promise<void> {
    if (s.kind === 'not_sent') {
      await Promise.all(spent.map((b) => b.giveBack()));
      return;
    }
    // A lost request may have been counted: assume so, as the in-process limiter does.
    if (s.kind === 'lost') return;
    const { info, status, code } = s;
    const window = this.window.place(info.resetMs);
    if (this.window.end !== null) this.voidAt(this.window.end);
    const named = new Set(describedBuckets(spent.map((b) => b.bucket), info, (b) => this.buckets[b].serverLimit));
    const counted = status !== 429 && window === 'current';
    // A header of a window that already ended by our clock must not clamp the next one, which another instance may have refilled.
    const open = info.resetMs === undefined || Date.now() < info.resetMs;
    const drained = status === 429 && code !== 'too_many_concurrent' ? (named.size > 0 ? spent.filter((b) => named.has(b.bucket)) : [...spent]) : [];
    const work: Promise<unknown>[] = [];
    for (const b of spent) {
      const describes = named.has(b.bucket) && window === 'current';
      if (describes && info.limit !== undefined && info.limit > 0) {
        work.push(b.setLimit(info.limit, 'header').then((changed) => changed && this.emit({ type: 'limit_changed', bucket: b.bucket, limit: b.limit, source: 'header' })));
      }
      if (drained.includes(b)) work.push(b.clampTo(0));
      else if (!counted) work.push(b.giveBack());
      else if (describes && open && info.remaining !== undefined) {
        b.noteRemaining(info.remaining, info.resetMs);
        work.push(b.clampTo(info.remaining));
      }
    }
    if (status === 429 && code === 'too_many_concurrent') this.emit({ type: 'too_many_concurrent', retryAfter: info.retryAfter });
    for (const b of drained) this.emit({ type: 'rate_limited', bucket: named.size > 0 ? b.bucket : null, retryAfter: info.retryAfter, refillAt: this.window.turnsAt ?? Date.now() });
    if (drained.length) this.window.ensureTimer();
    await Promise.all(work);
  }

  /**
   * When the server's window ends, the tokens it left unused are void: empty the buckets then,
   * so that nothing is taken between the end and the refill (which comes a margin later and
   * counts only the calls still out): a call taken there would land in the new window uncounted.
   * Only for a window still running by our clock: a late answer must not empty the next one.
   */
  private voidAt(end: number): void {
    if (this.closed || this.closing?.at === end || Date.now() >= end) return;
    if (this.closing) clearTimeout(this.closing.timer);
    const timer = setTimeout(() => {
      this.closing = null;
      void Promise.all(Object.values(this.buckets).map((b) => b.clampTo(0))).catch((e: unknown) => this.emit({ type: 'store_error', message: messageOf(e) }));
    }, end - Date.now());
    timer.unref();
    this.closing = { at: end, timer };
  }

  private noteExhausted(b: SharedBucket): void {
    if (this.exhaustedNoted.has(b.bucket)) return;
    this.exhaustedNoted.add(b.bucket);
    this.emit({ type: 'exhausted', bucket: b.bucket, queued: b.queued(), refillAt: this.window.turnsAt });
  }

  /**
   * The server's window turned. One instance refills the shared buckets for everyone: the
   * first to claim this window's turn in Redis. A turn with no known window (a server that
   * sends no reset) is named by the fallback period it falls in.
   */
  private async turn(ended: number | null): Promise<void> {
    if (this.closed) return;
    this.exhaustedNoted.clear();
    const id = ended !== null ? `w${ended}` : `f${Math.floor(Date.now() / this.o.fallbackWindowMs)}`;
    try {
      const mine = await this.o.store.claimTurn(this.o.tag, id);
      if (mine) await Promise.all(Object.values(this.buckets).map((b) => b.refill()));
      this.emit({ type: 'refill', buckets: [...BUCKETS], windowEnd: ended, shared: mine ? 'performed' : 'done_elsewhere' });
    } catch (e) {
      this.emit({ type: 'store_error', message: messageOf(e) });
    }
    // Calls still queued behind an empty bucket need a next turn even if no header comes.
    if (Object.values(this.buckets).some((b) => b.queued() > 0)) this.window.ensureTimer();
  }

  setFigures(figures: Partial<RateFigures>, source: LimitSource): void {
    for (const b of Object.values(this.buckets)) {
      const v = figures[b.bucket];
      if (v === undefined || v <= 0) continue;
      void b.setLimit(v, source).then(
        (changed) => changed && this.emit({ type: 'limit_changed', bucket: b.bucket, limit: v, source }),
        (e: unknown) => this.emit({ type: 'store_error', message: messageOf(e) }),
      );
    }
    const given = figures.max_concurrent;
    const mc = given === undefined ? undefined : Math.min(given, this.concurrencyCap);
    if (mc !== undefined && mc > 0 && mc !== this.maxConcurrent && RANK[source] >= RANK[this.maxConcurrentSource]) {
      this.maxConcurrent = mc;
      this.maxConcurrentSource = source;
      void updateSettings(this.concurrency, { maxConcurrent: mc }).catch((e: unknown) => this.emit({ type: 'store_error', message: messageOf(e) }));
      this.emit({ type: 'limit_changed', bucket: 'max_concurrent', limit: mc, source });
    }
  }

  limitOf(b: Bucket): number {
    return this.buckets[b].limit;
  }

  state(): LimiterState {
    return {
      buckets: Object.values(this.buckets).map((b) => ({
        bucket: b.bucket,
        limit: b.limit,
        limitSource: b.limitSource,
        available: b.lastSeen,
        outstanding: 0,
        queued: b.queued(),
        drained: false,
      })),
      inFlight: this.inFlight,
      peakInFlight: this.peakInFlight,
      maxConcurrent: this.maxConcurrent,
      windowEnd: this.window.end,
    };
  }

  /** Drop the calls still queued and leave Redis; the store's connection stays open for other keys. */
  async close(): Promise<void> {
    this.closed = true;
    this.window.close();
    if (this.closing) clearTimeout(this.closing.timer);
    for (const stop of this.unwatch.splice(0)) stop();
    await Promise.all([
      ...Object.values(this.buckets).map((b) => b.stop()),
      this.concurrency.stop({ dropWaitingJobs: true }).catch(() => undefined).then(() => this.concurrency.disconnect(false)),
    ]);
  }
}

/**
 * Schedule a job; once its function has started, its own outcome is the result, whatever
 * bottleneck says afterwards (the job's expiration passing, or Redis failing to free it).
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

/** bottleneck's typings return the limiter; in fact it returns a promise that Redis settles. */
function updateSettings(limiter: Bottleneck, settings: Bottleneck.ConstructorOptions): Promise<unknown> {
  return Promise.resolve(limiter.updateSettings(settings) as unknown);
}

function messageOf(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}
