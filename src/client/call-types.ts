import type { BodyOf, EndpointName, PathOf, QueryOf } from '../api/endpoints.js';
import type { Bucket } from '../api/enums.js';
import type { RateInfo } from './limiter/rate-headers.js';
import type { CallInput } from './validate.js';

// The shapes of a call to the client and of what it answers, for the client and what builds on it (paging, the key probe).

/** How one call is run, whatever it asks. */
export interface CallControls {
  signal?: AbortSignal;
  /** Overall deadline for this call in ms: queue wait, attempts and backoff. */
  deadlineMs?: number;
  /** 'refresh' skips a cached answer and stores the new one. */
  cache?: 'use' | 'refresh';
}

/** What a caller gives for endpoint N: its path ids (required when its path has any), query and body, as its row takes them. */
export type RequestOf<N extends EndpointName> = (Record<never, never> extends PathOf<N> ? { path?: PathOf<N> } : { path: PathOf<N> }) & {
  query?: QueryOf<N>;
  body?: BodyOf<N>;
};

/** A call of endpoint N by name (ReplyInboxClient.call): what it asks and how it runs. */
export type CallOptions<N extends EndpointName> = RequestOf<N> & CallControls;

/** A call of a row known only at run time (ReplyInboxClient.request): checked against the row all the same. */
export interface RowCallOptions extends CallInput, CallControls {}

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
