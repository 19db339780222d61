import { BUCKETS, type Bucket } from '../../api/enums.js';

/** What one response says about the key's buckets (Limits: x-ratelimit-*, retry-after). */
export interface RateInfo {
  limit: number | undefined;
  remaining: number | undefined;
  /** x-ratelimit-reset as epoch milliseconds. */
  resetMs: number | undefined;
  /** x-ratelimit-bucket, a sandbox extra; absent on a server that does not send it. */
  bucket: Bucket | undefined;
  /** retry-after in seconds. */
  retryAfter: number | undefined;
}

function int(v: string | undefined): number | undefined {
  if (v === undefined || !/^\s*\d+\s*$/.test(v)) return undefined;
  return Number(v);
}

export function readRateInfo(headers: Record<string, string>): RateInfo {
  const reset = int(headers['x-ratelimit-reset']);
  const named = headers['x-ratelimit-bucket']?.trim();
  return {
    limit: int(headers['x-ratelimit-limit']),
    remaining: int(headers['x-ratelimit-remaining']),
    resetMs: reset === undefined ? undefined : reset * 1000,
    bucket: (BUCKETS as readonly string[]).includes(named ?? '') ? (named as Bucket) : undefined,
    retryAfter: int(headers['retry-after']),
  };
}

/**
 * Which of the buckets a call spent the headers describe. The sandbox names it; without
 * that header a one-bucket call is unambiguous, and a two-bucket call is matched by its
 * limit when exactly one bucket has that limit; otherwise the headers are not applied.
 */
export function describedBuckets(held: readonly Bucket[], info: RateInfo, limitOf: (b: Bucket) => number): Bucket[] {
  if (info.bucket !== undefined) return held.includes(info.bucket) ? [info.bucket] : [];
  if (held.length === 1) return [...held];
  if (info.limit === undefined) return [];
  const match = held.filter((b) => limitOf(b) === info.limit);
  return match.length === 1 ? match : [];
}
