import type { Endpoint } from '../api/endpoints.js';
import { ApiError, type ReplyInboxError, NetworkError, TimeoutError } from './errors.js';

export interface RetryOptions {
  /** Attempts in all, the first included. */
  maxAttempts: number;
  baseDelayMs: number;
  maxDelayMs: number;
}

export const DEFAULT_RETRY: RetryOptions = { maxAttempts: 5, baseDelayMs: 200, maxDelayMs: 5_000 };

export type Decision = { retry: false } | { retry: true; delayMs: number };

const RETRYABLE_GET_STATUS = new Set([502, 503]);

/** Exponential backoff with equal jitter: half the step fixed, half random, so retries of a burst spread out. */
export function backoff(attempt: number, o: RetryOptions, random: () => number = Math.random): number {
  const step = Math.min(o.maxDelayMs, o.baseDelayMs * 2 ** Math.max(0, attempt - 1));
  return Math.round(step / 2 + random() * (step / 2));
}

/**
 * The retry policy. A 429 means the request was not processed, so any method may be
 * retried: rate_limited waits in the bucket's queue for the refill (no delay here: the
 * limiter drained the bucket), too_many_concurrent waits retry-after. GETs are also
 * retried on 502, 503, connection errors and per-attempt timeouts. Nothing else is, and
 * a write whose outcome is unknown never is.
 */
export function decide(e: Endpoint, error: ReplyInboxError, attempt: number, o: RetryOptions): Decision {
  if (attempt >= o.maxAttempts) return { retry: false };
  if (error instanceof ApiError && error.status === 429) {
    if (error.code === 'rate_limited') return { retry: true, delayMs: 0 };
    const after = error.retry_after !== undefined ? error.retry_after * 1000 : backoff(attempt, o);
    return { retry: true, delayMs: after };
  }
  if (e.method !== 'GET') return { retry: false };
  if (error instanceof ApiError && RETRYABLE_GET_STATUS.has(error.status)) {
    const after = error.retry_after !== undefined ? error.retry_after * 1000 : 0;
    return { retry: true, delayMs: Math.max(after, backoff(attempt, o)) };
  }
  if (error instanceof NetworkError) return { retry: true, delayMs: backoff(attempt, o) };
  if (error instanceof TimeoutError && error.phase !== 'deadline') return { retry: true, delayMs: backoff(attempt, o) };
  return { retry: false };
}

/** How to find out whether a write whose outcome is unknown was applied: the endpoint table names the read. */
export function checkHint(e: Endpoint, path: Readonly<Record<string, string>>, body: unknown): string {
  if (!e.settledBy) return 'Read the object again to see its current state.';
  const leadId = (body as { lead_id?: unknown } | undefined)?.lead_id ?? path.lead_id;
  const lead = typeof leadId === 'string' ? ` lead_id=${leadId}` : '';
  return `Check with ${e.settledBy} (workspace=${path.workspace ?? '?'}${lead}) whether the ${e.resource} exists before calling ${e.name} again.`;
}
