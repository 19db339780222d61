import { redactSecrets } from '../redact.js';
import type { WireCode } from '../api/params.js';

/**
 * Every failure the client reports is a ReplyInboxError with a stable `code`: callers
 * branch on `code` (and `kind`), never on `message`. Messages pass through redactSecrets,
 * so a key can never travel inside an error.
 */
/** `local`: refused or failed above the client (the MCP server's own checks), in the API's vocabulary. */
export type ErrorKind = 'api' | 'validation' | 'network' | 'timeout' | 'outcome_unknown' | 'cancelled' | 'local';

export abstract class ReplyInboxError extends Error {
  abstract readonly kind: ErrorKind;
  /** The API's error code, or the client's own: network_error, timeout, outcome_unknown, cancelled. */
  readonly code: string;
  /** The endpoint name from the endpoint table (e.g. list_leads). */
  readonly endpoint: string;

  constructor(code: string, endpoint: string, message: string, options?: { cause?: unknown }) {
    super(redactSecrets(message), options?.cause === undefined ? undefined : { cause: sanitizeCause(options.cause) });
    this.name = new.target.name;
    this.code = code;
    this.endpoint = endpoint;
  }

  /** A plain object for logs and tool results (no stack, no cause). */
  toJSON(): Record<string, unknown> {
    const out: Record<string, unknown> = { kind: this.kind, code: this.code, endpoint: this.endpoint, message: this.message };
    for (const [k, v] of Object.entries(this)) if (v !== undefined && !(k in out) && k !== 'cause' && k !== 'name') out[k] = v;
    return out;
  }
}

/** A foreign error is kept only as name/code/message text, redacted, so no secret can hide in it. */
function sanitizeCause(cause: unknown): unknown {
  if (cause instanceof ReplyInboxError) return cause;
  if (cause instanceof Error) {
    const copy = new Error(redactSecrets(cause.message));
    copy.name = cause.name;
    const code = (cause as { code?: unknown }).code;
    if (code !== undefined) (copy as Error & { code?: unknown }).code = code;
    copy.stack = redactSecrets(cause.stack ?? '');
    return copy;
  }
  return redactSecrets(String(cause));
}

/** The API answered with an error envelope (or a non-JSON error status). */
export class ApiError extends ReplyInboxError {
  readonly kind = 'api' as const;
  readonly status: number;
  readonly param: string | undefined;
  readonly required_scope: string | undefined;
  /** Seconds, from the body or the retry-after header. */
  readonly retry_after: number | undefined;
  /** The attempts spent before giving up (retries included). */
  readonly attempts: number;

  constructor(init: {
    status: number;
    code: string;
    message: string;
    endpoint: string;
    param?: string | undefined;
    required_scope?: string | undefined;
    retry_after?: number | undefined;
    attempts?: number;
  }) {
    super(init.code, init.endpoint, init.message);
    this.status = init.status;
    this.param = init.param;
    this.required_scope = init.required_scope;
    this.retry_after = init.retry_after;
    this.attempts = init.attempts ?? 1;
  }
}

/** Refused by the client before anything was sent; `code` is the one the API would answer. */
export class ValidationError extends ReplyInboxError {
  readonly kind = 'validation' as const;
  readonly param: string | undefined;
  constructor(code: WireCode, endpoint: string, message: string, param?: string) {
    super(code, endpoint, message);
    this.param = param;
  }
}

/** Whether the request reached the service: a connect failure is 'no', a reset mid-exchange 'maybe'. */
export type Sent = 'no' | 'maybe';

/** The connection failed (refused, reset, DNS…). */
export class NetworkError extends ReplyInboxError {
  readonly kind = 'network' as const;
  readonly sent: Sent;
  /** The low-level code, e.g. ECONNRESET or UND_ERR_SOCKET. */
  readonly cause_code: string | undefined;
  constructor(endpoint: string, message: string, sent: Sent, causeCode: string | undefined, cause?: unknown) {
    super('network_error', endpoint, message, { cause });
    this.sent = sent;
    this.cause_code = causeCode;
  }
}

export type TimeoutPhase = 'connect' | 'headers' | 'body' | 'deadline';

/** A timeout: one attempt's connect/headers/body timeout, or the caller's overall deadline. */
export class TimeoutError extends ReplyInboxError {
  readonly kind = 'timeout' as const;
  readonly phase: TimeoutPhase;
  readonly sent: Sent;
  /** The bucket the call was still waiting for when the deadline passed, if it never left the queue. */
  readonly waiting_for: string | undefined;
  constructor(endpoint: string, message: string, phase: TimeoutPhase, sent: Sent, waitingFor?: string, cause?: unknown) {
    super('timeout', endpoint, message, { cause });
    this.phase = phase;
    this.sent = sent;
    this.waiting_for = waitingFor;
  }
}

/**
 * A write may or may not have been applied (timeout, reset after sending, or a 5xx on a
 * write that is not idempotent). It is never
 * resent by the client; `check` says how to find out, `safe_to_repeat` whether repeating
 * it is harmless (idempotent writes).
 */
export class OutcomeUnknownError extends ReplyInboxError {
  readonly kind = 'outcome_unknown' as const;
  readonly check: string;
  readonly safe_to_repeat: boolean;
  constructor(endpoint: string, check: string, safeToRepeat: boolean, cause: ReplyInboxError) {
    super(
      'outcome_unknown',
      endpoint,
      `The outcome of ${endpoint} is unknown: the request may have been applied before ${lostBy(cause)}. ` +
        (safeToRepeat ? `Repeating it is harmless. ${check}` : `It was not resent, to avoid a duplicate. ${check}`),
      { cause },
    );
    this.check = check;
    this.safe_to_repeat = safeToRepeat;
  }
}

/** The call was not sent: a bucket it needs is spent and refills only after the call's deadline. */
export class BucketSpentError extends ReplyInboxError {
  readonly kind = 'api' as const;
  readonly sent = 'no' as const;
  readonly bucket: string;
  /** When the bucket refills (ISO 8601). */
  readonly refill_at: string;
  /** Seconds until the refill. */
  readonly retry_after: number;
  constructor(endpoint: string, bucket: string, refillAt: number, now: number) {
    const seconds = Math.max(1, Math.ceil((refillAt - now) / 1000));
    const at = new Date(refillAt).toISOString();
    super(
      'rate_limited',
      endpoint,
      `${endpoint} was not sent: the ${bucket} bucket is spent and refills at ${at} (in ${seconds} s), after this call's deadline.`,
    );
    this.bucket = bucket;
    this.refill_at = at;
    this.retry_after = seconds;
  }
}

/** The call was not sent: the shared rate limiter's store (Redis) cannot be reached. */
export class LimiterUnavailableError extends ReplyInboxError {
  readonly kind = 'network' as const;
  readonly sent = 'no' as const;
  constructor(endpoint: string, reason: string) {
    super('limiter_unavailable', endpoint, `rate limiter unavailable: not sent. ${endpoint} was not sent because ${reason}.`);
  }
}

/** What lost the answer, in words: a timeout, a cancel, the connection, or an answer that is no success nor a refusal. */
function lostBy(cause: ReplyInboxError): string {
  if (cause.code === 'timeout') return 'the timeout';
  if (cause instanceof CancelledError && cause.by === 'shutdown') return 'the server shut down (its drain ran out of time before the API answered)';
  if (cause.code === 'cancelled') return 'the call was cancelled (its answer was not waited for)';
  const status = (cause as { status?: unknown }).status;
  if (typeof status !== 'number') return cause.code === 'network_error' ? 'the connection failed' : `the call failed (${cause.code})`;
  if (status >= 300 && status < 400) return `its answer came back as a redirect (HTTP ${status}), not followed`;
  if (cause.code === 'response_too_large') return `its answer (HTTP ${status}) came back too large to read`;
  if (cause.code === 'invalid_response') return `its answer (HTTP ${status}) came back unreadable (not JSON)`;
  return `the answer HTTP ${status} (${cause.code}) came back`;
}

/**
 * The caller's AbortSignal fired, or (`by: 'shutdown'`) the client was closed under the call: a
 * server's drain ran out of time. `sent` says whether the request may have reached the service.
 */
export class CancelledError extends ReplyInboxError {
  readonly kind = 'cancelled' as const;
  readonly sent: Sent;
  readonly by: 'caller' | 'shutdown';
  constructor(endpoint: string, sent: Sent, by: 'caller' | 'shutdown' = 'caller') {
    const why = by === 'shutdown' ? ' (the server is shutting down)' : '';
    super(
      'cancelled',
      endpoint,
      sent === 'no' ? `${endpoint} was cancelled before it was sent${why}: nothing reached the API.` : `${endpoint} was cancelled while in flight${why}.`,
    );
    this.sent = sent;
    this.by = by;
  }
}

export function isReplyInboxError(e: unknown): e is ReplyInboxError {
  return e instanceof ReplyInboxError;
}
