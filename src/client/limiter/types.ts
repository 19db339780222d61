import type { Clock } from '../../clock.js';
import { type Bucket, RATE_LIMITS } from '../../api/enums.js';
import type { RateInfo } from './rate-headers.js';

/** Where a bucket's limit came from; a later source of higher rank wins. */
export type LimitSource = 'spec' | 'me' | 'header';
export const RANK: Record<LimitSource, number> = { spec: 0, me: 1, header: 2 };

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
  /** No call is in flight and every queued call waits for an empty bucket: nothing moves before the refill. */
  | { type: 'waiting_for_refill'; buckets: Bucket[]; queued: number; refillAt: number }
  | { type: 'limit_changed'; bucket: Bucket | 'max_concurrent'; limit: number; source: LimitSource }
  | { type: 'store_error'; message: string }
  /** A retry-after or x-ratelimit-reset pointed further ahead than the bound (two windows): it was read as the bound. Said once per header. */
  | { type: 'header_clamped'; header: 'retry-after' | 'x-ratelimit-reset'; value: string; boundMs: number };

export interface BucketState {
  bucket: Bucket;
  limit: number;
  limitSource: LimitSource;
  /** Estimated tokens left in the server's current window (shared mode: the last value seen in Redis). */
  available: number;
  /** Requests that took a token and have not been answered yet (shared mode: this instance's). */
  outstanding: number;
  /** Calls waiting for a token. */
  queued: number;
  /** A 429 emptied the bucket until the server's refill. */
  drained: boolean;
}

export interface LimiterState {
  buckets: BucketState[];
  inFlight: number;
  /** The most requests this client ever had in flight at once. */
  peakInFlight: number;
  maxConcurrent: number;
  /** Calls sent at once (tokens free, nobody waiting) and calls that went through the queue. */
  sent: { atOnce: number; queued: number };
  /** End of the server's current window (epoch ms) when a header told it. */
  windowEnd: number | null;
}

/** How an exchange ended, for the accounts: what the service counted and what it said. */
export type Settlement = { kind: 'not_sent' } | { kind: 'lost' } | { kind: 'response'; status: number; code: string | undefined; info: RateInfo };

export interface LimiterOptions {
  /** The figures to start from (the spec's) until GET /v1/me or the headers say otherwise. */
  figures: RateFigures;
  /** The caller's ceilings: never spend more than these, whatever the service allows. */
  caps?: Partial<RateFigures>;
  /** Refill this long after x-ratelimit-reset, for clock skew with the server. */
  refillMarginMs: number;
  /** Window assumed when the server sends no x-ratelimit-reset; a retry-after or reset past two of them is clamped to two. */
  fallbackWindowMs: number;
  /** Replace bottleneck's setTimeout(0) yields by setImmediate (see fast-yield.ts). */
  fastYield: boolean;
  onEvent?: (e: LimiterEvent) => void;
  /** The window timers and the time now (a test drives them); the system's by default. */
  clock?: Clock;
}

/** What the client needs of a limiter. */
export interface RateLimiter {
  /**
   * Run one exchange once every bucket gave a token and a concurrency slot is free.
   * `deadlineAt` (epoch ms): a call whose bucket refills only after it is refused at once (NoTokenInTime).
   */
  run<T>(
    buckets: readonly Bucket[],
    signal: AbortSignal,
    exchange: () => Promise<{ value: T; settlement: Settlement }>,
    priority?: number,
    deadlineAt?: number,
  ): Promise<T>;
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

/** Thrown out of run() at once when a bucket the call needs refills only after the call's deadline. */
export class NoTokenInTime extends Error {
  constructor(
    readonly bucket: Bucket,
    /** When the bucket refills (epoch ms). */
    readonly refillAt: number,
  ) {
    super(`the ${bucket} bucket refills only after the deadline`);
  }
}

/** Thrown out of run() at once when the limiter's store (Redis) cannot be reached: nothing was sent. */
export class LimiterUnavailable extends Error {
  constructor(readonly reason: string) {
    super(`rate limiter unavailable: not sent (${reason})`);
  }
}

export const PRIORITY_NEW = 5;
/** Jobs that already waited (step-backs, retries) go ahead of new work. */
export const PRIORITY_AGAIN = 3;
/** Jobs holding a token of a scarcer bucket while they wait for the next one. */
export const PRIORITY_HOLDING = 4;
