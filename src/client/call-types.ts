import type { Bucket } from '../api/enums.js';
import type { RateInfo } from './limiter/rate-headers.js';
import type { CallInput } from './validate.js';

// The shapes of a call to the client and of what it answers, for the client and what builds on it (paging, the key probe).

export interface CallOptions extends CallInput {
  signal?: AbortSignal;
  /** Overall deadline for this call in ms: queue wait, attempts and backoff. */
  deadlineMs?: number;
  /** 'refresh' skips a cached answer and stores the new one. */
  cache?: 'use' | 'refresh';
}

export interface CallResult<T = unknown> {
  data: T;
  status: number;
  headers: Record<string, string>;
  /** The buckets this call spends (table bucket, upstream moves, the thread meter). */
  buckets: Bucket[];
  attempts: number;
  /** Present when the answer came from the client's cache: its age. */
  cachedAgeSeconds?: number;
  rateLimit?: RateInfo;
}

export interface BinaryResult extends CallResult<Buffer> {
  filename: string | null;
  contentType: string | null;
}
