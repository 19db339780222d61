import { nestsDeeperThan } from '../json-depth.js';
import { type Redactor, knownSecrets, redactDeep } from '../redact.js';
import type { Endpoint } from '../api/endpoints.js';
import { errorEnvelopeSchema } from '../api/errors.js';
import { ApiError } from './errors.js';
import type { HttpResponse } from './http.js';
import { type RateInfo, readRateInfo } from './limiter/rate-headers.js';

// Reading an answer of the API: its JSON, its error, its size. The client and the key probe both read answers.

/** Deeper than this is no answer of the API (its resources nest a few levels), and recursive readers would overflow on it. */
export const MAX_ANSWER_DEPTH = 100;

/** A body that is JSON but nests deeper than MAX_ANSWER_DEPTH: refused unread. */
export class NestedTooDeep extends Error {
  constructor() {
    super(`JSON nested deeper than ${MAX_ANSWER_DEPTH} levels`);
  }
}

/**
 * A JSON body from the API, with any secret it echoes (in whatever form) redacted before anyone
 * sees it: the known secrets, or those of `r` (the key a probe asks about, not registered yet).
 * Throws SyntaxError for text that is not JSON, NestedTooDeep for JSON past any answer's depth.
 */
export function parseJson(body: Buffer, r: Redactor = knownSecrets): unknown {
  const text = body.toString('utf8');
  if (nestsDeeperThan(text, MAX_ANSWER_DEPTH)) throw new NestedTooDeep();
  const data: unknown = JSON.parse(text);
  return r.mayHold(text) ? redactDeep(data, r) : data;
}

/** A 2xx body that could not be read: not JSON, or JSON nested past any answer's depth (said so, as the caller's invalid_response). */
export function unreadableError(e: Endpoint, status: number, cause: unknown, attempts?: number): ApiError {
  const what = cause instanceof NestedTooDeep ? `JSON nested deeper than ${MAX_ANSWER_DEPTH} levels, left unread` : 'a body that is not JSON';
  return new ApiError({ status, code: 'invalid_response', message: `${e.name} answered with ${what}.`, endpoint: e.name, attempts });
}

/** How an error answer is read: its rate headers, the longest retry_after believed (seconds), the secrets it is cleaned of. */
export interface ErrorReading {
  info?: RateInfo;
  maxRetryAfter?: number;
  redactor?: Redactor;
}

/**
 * An answer of the API that is an error, in the API's own terms when it sent its envelope;
 * a retry_after past `maxRetryAfter` seconds is told as that bound (as the limiter reads it).
 */
export function apiErrorOf(e: Endpoint, res: HttpResponse, o: ErrorReading = {}): ApiError {
  const { info = readRateInfo(res.headers), maxRetryAfter = Number.POSITIVE_INFINITY } = o;
  const within = (s: number | undefined) => (s === undefined ? s : Math.min(s, maxRetryAfter));
  let parsed: unknown;
  try {
    parsed = parseJson(res.body, o.redactor);
  } catch {
    parsed = undefined;
  }
  const env = errorEnvelopeSchema.safeParse(parsed);
  if (env.success) {
    const x = env.data.error;
    return new ApiError({
      status: res.status,
      code: x.code,
      message: x.message,
      endpoint: e.name,
      param: x.param,
      required_scope: x.required_scope,
      retry_after: within(x.retry_after ?? info.retryAfter),
    });
  }
  const code = res.status === 429 ? 'rate_limited' : res.status === 502 ? 'upstream_error' : res.status >= 500 ? 'internal_error' : `http_${res.status}`;
  return new ApiError({
    status: res.status,
    code,
    message: `${e.name} answered HTTP ${res.status} without an error body.`,
    endpoint: e.name,
    retry_after: within(info.retryAfter),
  });
}

/**
 * A 414 or 431: the request line was too long for the API or a proxy before it, which with our
 * short headers means the query. The caller's arguments are at fault, never the moment, so the
 * call fails as invalid_request naming the longest query parameter, and is not tried again.
 */
export function tooLongError(e: Endpoint, status: number, target: string): ApiError {
  const query = target.includes('?') ? target.slice(target.indexOf('?') + 1) : '';
  let longest: { name: string; chars: number } | undefined;
  for (const part of query.split('&')) {
    const name = decodeURIComponent(part.split('=')[0] ?? '');
    if (name && (!longest || part.length > longest.chars)) longest = { name, chars: part.length };
  }
  const where = longest ? `, ${longest.chars} of them in ${longest.name}` : '';
  return new ApiError({
    status,
    code: 'invalid_request',
    param: longest?.name,
    endpoint: e.name,
    message: `${e.name} was refused with HTTP ${status}: the request's query is too long (${target.length} characters${where}). Pass fewer values${longest ? ` in ${longest.name}` : ''}, or split the call.`,
  });
}

/** An answer over the body limit, dropped unread: the call fails saying so (a retry would meet the same answer). */
export function tooLargeError(e: Endpoint, res: HttpResponse): ApiError {
  const t = res.tooLarge!;
  const mib = (n: number) => `${(n / 1024 / 1024).toFixed(1)} MiB`;
  const size = t.declared ? `declared ${mib(t.seen)}` : `over ${mib(t.limit)} and still coming`;
  const message =
    e.returns === 'binary'
      ? `${e.name} was refused: the file is larger than the ${mib(t.limit)} (25 MB) attachment limit (${size}); nothing was downloaded.`
      : `${e.name} was refused: the API's answer is larger than the client's ${mib(t.limit)} limit for JSON answers (${size}); it was dropped unread.`;
  return new ApiError({ status: res.status, code: 'response_too_large', message, endpoint: e.name });
}

/**
 * A redirect is never followed: the key would go with it, and the spec says the API answers a
 * download with the file itself (its own fetch is what follows redirects). It fails naming the
 * host only, so a signed address is not repeated.
 */
export function redirectError(e: Endpoint, res: HttpResponse): ApiError {
  const location = res.headers.location;
  let host = 'no Location';
  try {
    if (typeof location === 'string') host = new URL(location, 'http://api.invalid').host;
  } catch {
    host = 'an unreadable Location';
  }
  return new ApiError({
    status: res.status,
    code: 'invalid_response',
    message: `${e.name} answered a redirect (HTTP ${res.status}, to ${host}) instead of ${e.returns === 'binary' ? 'the file' : 'its answer'}; it was not followed, so the API key went nowhere else and nothing was downloaded.`,
    endpoint: e.name,
  });
}
