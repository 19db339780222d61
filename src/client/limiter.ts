import Bottleneck from 'bottleneck';
import { type Bucket, RATE_LIMITS } from '../spec/index.js';
import { BucketAccount, type LimitSource } from './bucket.js';
import { installFastYield } from './fast-yield.js';
import { type RateInfo, describedBuckets } from './rate-headers.js';
import { ServerWindow } from './server-window.js';

export type RateFigures = Record<Bucket, number> & { max_concurrent: number };

export const SPEC_FIGURES: RateFigures = {
  read: RATE_LIMITS.read,
  write: RATE_LIMITS.write,
  upstream: RATE_LIMITS.upstream,
  thread: RATE_LIMITS.thread,
  max_concurrent: RATE_LIMITS.max_concurrent,
};

/** What the limiter tells an observer, e.g. for logging that a bucket is throttling. */
export type LimiterEvent =
  | { type: 'exhausted'; bucket: Bucket; queued: number; refillAt: number | null }
  | { type: 'refill'; buckets: Bucket[]; windowEnd: number | null; shared?: 'performed' | 'done_elsewhere' }
  | { type: 'rate_limited'; bucket: Bucket | null; retryAfter: number | undefined; refillAt: number }
  | { type: 'too_many_concurrent'; retryAfter: number | undefined }
  | { type: 'step_back'; bucket: Bucket }
  | { type: 'limit_changed'; bucket: Bucket | 'max_concurrent'; limit: number; source: LimitSource }
  | { type: 'store_error'; message: string };

export interface BucketState {
  bucket: Bucket;
  limit: number;
  limitSource: LimitSource;
  /** Estimated tokens left in the server's current window. */
  available: number;
  /** Requests that took a token and have not been answered yet. */
  outstanding: number;
  /** Calls waiting for a token. */
  queued: number;
  drained: boolean;
}

export interface LimiterState {
  buckets: BucketState[];
  inFlight: number;
  /** The most requests this client ever had in flight at once. */
  peakInFlight: number;
  maxConcurrent: number;
  /** End of the server's current window (epoch ms) when a header told it. */
  windowEnd: number | null;
}

/** How an exchange ended, for the accounts: what the service counted and what it said. */
export type Settlement =
  | { kind: 'not_sent' }
  | { kind: 'lost' }
  | { kind: 'response'; status: number; code: string | undefined; info: RateInfo };

export interface LimiterOptions {
  /** The figures to start from (the spec's) until GET /v1/me or the headers say otherwise. */
  figures: RateFigures;
  /** The caller's ceilings: never spend more than these, whatever the service allows. */
  caps?: Partial<RateFigures>;
  /** Refill this long after x-ratelimit-reset, for clock skew with the server. */
  refillMarginMs: number;
  /** Window assumed when the server sends no x-ratelimit-reset. */
  fallbackWindowMs: number;
  /** Replace bottleneck's setTimeout(0) yields by setImmediate (see fast-yield.ts). */
  fastYield: boolean;
  onEvent?: (e: LimiterEvent) => void;
}

/** What the client needs of a limiter: the in-process one below, or the Redis-shared one. */
export interface RateLimiter {
  run<T>(buckets: readonly Bucket[], signal: AbortSignal, exchange: () => Promise<{ value: T; settlement: Settlement }>, priority?: number): Promise<T>;
  setFigures(figures: Partial<RateFigures>, source: LimitSource): void;
  limitOf(b: Bucket): number;
  state(): LimiterState;
  close(): Promise<void>;
}

/** Thrown out of run() when the signal fires before the request was sent. */
export class Dropped extends Error {
  constructor() {
    super('dropped before sending');
  }
}

export const PRIORITY_NEW = 5;
const STEP_BACK = Symbol('step back');
/** Jobs that already waited (step-backs, retries) go ahead of new work. */
export const PRIORITY_AGAIN = 3;
/** Jobs holding a token of a scarcer bucket while they wait for the next one. */
export const PRIORITY_HOLDING = 4;

/**
 * The key's rate buckets: one bottleneck reservoir per bucket, then one shared
 * concurrency cap, in that order. Scarce buckets are passed first (upstream, thread,
 * write, read), so a call that spends two buckets holds the scarcer token the least.
 */
export class Limiter implements RateLimiter {
  private readonly accounts: Record<Bucket, BucketAccount>;
  private readonly concurrency: Bottleneck;
  private maxConcurrent: number;
  private maxConcurrentSource: LimitSource;
  private readonly concurrencyCap: number;
  private inFlight = 0;
  private peakInFlight = 0;
  private readonly window: ServerWindow;
  private readonly drainTimers = new Set<NodeJS.Timeout>();
  /** Buckets already reported exhausted in this window (one event per window, not one per call). */
  private readonly exhaustedNoted = new Set<Bucket>();

  constructor(private readonly opts: LimiterOptions) {
    const caps = opts.caps ?? {};
    this.accounts = {
      read: new BucketAccount('read', opts.figures.read, caps.read),
      write: new BucketAccount('write', opts.figures.write, caps.write),
      upstream: new BucketAccount('upstream', opts.figures.upstream, caps.upstream),
      thread: new BucketAccount('thread', opts.figures.thread, caps.thread),
    };
    this.concurrencyCap = caps.max_concurrent ?? Number.POSITIVE_INFINITY;
    this.maxConcurrent = Math.min(opts.figures.max_concurrent, this.concurrencyCap);
    this.maxConcurrentSource = 'spec';
    this.concurrency = new Bottleneck({ maxConcurrent: this.maxConcurrent, id: 'reply-inbox-concurrency' });
    this.window = new ServerWindow({ marginMs: opts.refillMarginMs, fallbackMs: opts.fallbackWindowMs, onTurn: () => this.roll() });
    if (opts.fastYield) {
      for (const a of Object.values(this.accounts)) installFastYield(a.limiter);
      installFastYield(this.concurrency);
    }
  }

  private emit(e: LimiterEvent): void {
    this.opts.onEvent?.(e);
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
  ): Promise<T> {
    if (signal.aborted) return Promise.reject(new Dropped());
    const order = [...new Set(buckets)].sort((a, b) => this.accounts[a].limit - this.accounts[b].limit);
    let phase: 'waiting' | 'sending' | 'cancelled' = 'waiting';
    const held: BucketAccount[] = [];
    const releaseAll = () => {
      for (const a of held.splice(0)) a.release();
    };
    type Step = { value: T } | typeof STEP_BACK | Dropped;

    const stage = (i: number, prio: number): Promise<Step> => {
      if (i < order.length) {
        const account = this.accounts[order[i]!];
        this.noteExhausted(account);
        return account.limiter.schedule({ priority: prio }, async (): Promise<Step> => {
          account.take();
          held.push(account);
          if (account.available() <= 0 && account.queued() > 0) this.noteExhausted(account);
          if (phase === 'cancelled') {
            releaseAll();
            return new Dropped();
          }
          // Holding a scarcer token, the call goes ahead of fresh work so that token is not wasted waiting.
          return stage(i + 1, Math.min(prio, PRIORITY_HOLDING));
        });
      }
      return this.concurrency.schedule({ priority: prio }, async (): Promise<Step> => {
        if (phase === 'cancelled') {
          releaseAll();
          return new Dropped();
        }
        // A header may have shown since that the window holds fewer tokens than we took.
        const short = held.find((a) => a.available() < 0);
        if (short) {
          this.emit({ type: 'step_back', bucket: short.bucket });
          releaseAll();
          return STEP_BACK;
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
        this.settle(mine, outcome.settlement);
        return { value: outcome.value };
      });
    };

    return new Promise<T>((resolve, reject) => {
      const onAbort = () => {
        // Once sent, the exchange itself ends with the abort and settles its tokens.
        if (phase !== 'waiting') return;
        phase = 'cancelled';
        reject(new Dropped());
      };
      signal.addEventListener('abort', onAbort, { once: true });
      const loop = async (): Promise<T> => {
        let prio = priority;
        for (;;) {
          const r = await stage(0, prio);
          if (r === STEP_BACK) {
            prio = PRIORITY_AGAIN;
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

  private noteExhausted(a: BucketAccount): void {
    if (a.available() > 0) return;
    this.window.ensureTimer();
    if (this.exhaustedNoted.has(a.bucket)) return;
    this.exhaustedNoted.add(a.bucket);
    this.emit({ type: 'exhausted', bucket: a.bucket, queued: a.queued(), refillAt: a.refillsAt ?? this.window.turnsAt });
  }

  /** Book the answer of one exchange against the buckets it spent. */
  private settle(spent: readonly BucketAccount[], s: Settlement): void {
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
    const window = this.window.place(info.resetMs);
    const named = new Set(describedBuckets(spent.map((a) => a.bucket), info, (b) => this.accounts[b].serverLimit));
    const counted = status !== 429 && window === 'current';
    for (const a of spent) {
      const seen = named.has(a.bucket) && window === 'current' ? { limit: info.limit, remaining: info.remaining } : undefined;
      const before = a.limit;
      a.settle(counted, seen);
      if (a.limit !== before) this.emit({ type: 'limit_changed', bucket: a.bucket, limit: a.limit, source: 'header' });
    }
    if (status === 429 && code === 'too_many_concurrent') {
      this.emit({ type: 'too_many_concurrent', retryAfter: info.retryAfter });
    } else if (status === 429) {
      const until = this.drainUntil(info);
      const targets = named.size > 0 ? spent.filter((a) => named.has(a.bucket)) : spent;
      for (const a of targets) {
        a.drain(until);
        this.emit({ type: 'rate_limited', bucket: named.size > 0 ? a.bucket : null, retryAfter: info.retryAfter, refillAt: until });
      }
      this.scheduleUndrain(until);
    }
    this.ensureTimerIfLow(spent);
  }

  /** When a drained bucket may be used again: retry-after, else the reset, else one second. */
  private drainUntil(info: RateInfo): number {
    const now = Date.now();
    if (info.retryAfter !== undefined) return now + info.retryAfter * 1000 + this.opts.refillMarginMs;
    if (info.resetMs !== undefined && info.resetMs > now) return info.resetMs + this.opts.refillMarginMs;
    return now + 1000;
  }

  private scheduleUndrain(until: number): void {
    const t = setTimeout(() => {
      this.drainTimers.delete(t);
      const now = Date.now();
      const ended: Bucket[] = [];
      for (const a of Object.values(this.accounts)) {
        if (a.drained && (a.refillsAt ?? 0) <= now) {
          a.undrain(now);
          this.exhaustedNoted.delete(a.bucket);
          ended.push(a.bucket);
        }
      }
      if (ended.length) this.emit({ type: 'refill', buckets: ended, windowEnd: this.window.end });
    }, Math.max(0, until - Date.now()));
    t.unref();
    this.drainTimers.add(t);
  }

  private ensureTimerIfLow(spent: readonly BucketAccount[]): void {
    if (spent.some((a) => a.available() <= 0)) this.window.ensureTimer();
  }

  /** The server's window turned: every bucket starts again from its limit. */
  private roll(): void {
    const now = Date.now();
    for (const a of Object.values(this.accounts)) a.refill(now);
    this.exhaustedNoted.clear();
    this.emit({ type: 'refill', buckets: Object.keys(this.accounts) as Bucket[], windowEnd: null });
    // Jobs still queued behind an empty bucket need the next refill even if no header comes.
    if (Object.values(this.accounts).some((a) => a.queued() > 0 && a.available() <= 0)) this.window.ensureTimer();
  }

  /** Limits learned from GET /v1/me (or set by the caller). */
  setFigures(figures: Partial<RateFigures>, source: LimitSource): void {
    for (const b of Object.keys(this.accounts) as Bucket[]) {
      const v = figures[b];
      if (v !== undefined && v > 0 && this.accounts[b].setLimit(v, source)) this.emit({ type: 'limit_changed', bucket: b, limit: v, source });
    }
    const given = figures.max_concurrent;
    const mc = given === undefined ? undefined : Math.min(given, this.concurrencyCap);
    if (mc !== undefined && mc > 0 && mc !== this.maxConcurrent && rank(source) >= rank(this.maxConcurrentSource)) {
      this.maxConcurrent = mc;
      this.maxConcurrentSource = source;
      void this.concurrency.updateSettings({ maxConcurrent: mc });
      this.emit({ type: 'limit_changed', bucket: 'max_concurrent', limit: mc, source });
    }
  }

  limitOf(b: Bucket): number {
    return this.accounts[b].limit;
  }

  state(): LimiterState {
    return {
      buckets: Object.values(this.accounts).map((a) => ({
        bucket: a.bucket,
        limit: a.limit,
        limitSource: a.limitSource,
        available: a.available(),
        outstanding: a.outstanding,
        queued: a.queued(),
        drained: a.drained,
      })),
      inFlight: this.inFlight,
      peakInFlight: this.peakInFlight,
      maxConcurrent: this.maxConcurrent,
      windowEnd: this.window.end,
    };
  }

  async close(): Promise<void> {
    this.window.close();
    for (const t of this.drainTimers) clearTimeout(t);
    this.drainTimers.clear();
    await Promise.all([...Object.values(this.accounts).map((a) => a.stop()), this.concurrency.stop({ dropWaitingJobs: true })]);
  }
}

function rank(s: LimitSource): number {
  return { spec: 0, me: 1, header: 2 }[s];
}

