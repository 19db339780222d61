import type { Logger } from 'pino';
import { type LogLevel, createLogger } from '../log.js';
import { type Clock, systemClock, wait } from '../clock.js';
import { registerSecret } from '../redact.js';
import { type Endpoint, ENDPOINT_BY_NAME, type EndpointName, type ListEndpointName, type PathOf, endpoint } from '../api/endpoints.js';
import type { ItemOf, ReturnOf } from '../api/returns.js';
import type { Bucket } from '../api/enums.js';
import type { Me } from '../api/resources.js';
import { keyHandleOf } from '../api/keys.js';
import { DEFAULT_CACHE_TTLS, type CacheTtls, ResponseCache } from './cache.js';
import {
  ApiError,
  BucketSpentError,
  CancelledError,
  LimiterUnavailableError,
  NetworkError,
  OutcomeUnknownError,
  type ReplyInboxError,
  type Sent,
  TimeoutError,
  ValidationError,
} from './errors.js';
import { AbortedExchange, type BodyLimits, DEFAULT_BODY_LIMITS, DEFAULT_TIMEOUTS, Http, type HttpResponse, type Timeouts } from './http.js';
import { Limiter } from './limiter/limiter.js';
import {
  Dropped,
  type LimiterEvent,
  type LimiterOptions,
  type LimiterState,
  LimiterUnavailable,
  NoTokenInTime,
  PRIORITY_AGAIN,
  type RateFigures,
  type RateLimiter,
  SPEC_FIGURES,
  type Settlement,
} from './limiter/types.js';
import { type PageOptions, paginate } from './paginate.js';
import { type RateInfo, readRateInfo } from './limiter/rate-headers.js';
import { WINDOWS_AHEAD } from './limiter/header-bound.js';
import type { RedisLimitStore } from './limiter/redis/limit-store.js';
import { DEFAULT_RETRY, type RetryOptions, checkHint, decide } from './retry.js';
import { apiErrorOf, parseJson, redirectError, tooLargeError, tooLongError, unreadableError } from './answers.js';
import type { BinaryResult, CallControls, CallOptions, CallResult, RequestOf, RowCallOptions } from './call-types.js';
import { type Prepared, prepare } from './validate.js';

export interface ClientOptions {
  /** The API key. It is kept private: never logged, never in an error. */
  apiKey: string;
  baseUrl: string;
  /** A pino logger (stderr). Default: createLogger('reply-inbox-client', logLevel). */
  logger?: Logger;
  logLevel?: LogLevel;
  timeouts?: Partial<Timeouts>;
  /** The most response body read, in bytes, for attachments and for JSON; past it the call fails with response_too_large. */
  maxBodyBytes?: Partial<BodyLimits>;
  userAgent?: string;
  retry?: Partial<RetryOptions>;
  /**
   * Ceilings per bucket (and max_concurrent): the client never spends more than these even
   * when the service allows more, e.g. to share one key between two processes.
   */
  limits?: Partial<RateFigures>;
  /** Read rate_limits from GET /v1/me before the first call. Default true. */
  discoverLimits?: boolean;
  /** Refill this long after x-ratelimit-reset (clock skew). Default 50 ms. */
  refillMarginMs?: number;
  /** Window to assume when the server sends no x-ratelimit-reset. Default 60 s. */
  fallbackWindowMs?: number;
  /** Yield bottleneck's steps with setImmediate instead of setTimeout(0). Default true. */
  fastYield?: boolean;
  /** TTLs in ms of the cached endpoints, or false to cache nothing. */
  cache?: Partial<CacheTtls> | false;
  /** Time for the limiter's windows, the call's deadline and its retry pauses, for a test to drive. Default: the system's. */
  clock?: Clock;
  /** Limiter events (a bucket exhausted, a 429, a refill), e.g. for logging throttling. */
  onLimiterEvent?: (e: LimiterEvent) => void;
  /** Keep this key's buckets and concurrency in Redis, shared with every instance using the same store. */
  sharedLimits?: RedisLimitStore;
  /** A GET /v1/me answer already read for this key (KeyProbe): cached and applied instead of read again. */
  me?: CallResult<Me>;
}

export type { BinaryResult, CallControls, CallOptions, CallResult, RequestOf, RowCallOptions } from './call-types.js';

/** The options argument, left out where the endpoint needs nothing (no path ids). */
type OptionalIfEmpty<O> = Record<never, never> extends O ? [opts?: O] : [opts: O];

type Attempt = { ok: true; res: HttpResponse } | { ok: false; error: ReplyInboxError | AbortedExchange; res?: HttpResponse };

/** GET /v1/me: its cached answer is the key's scopes and limits. */
const ME = endpoint('get_me');

/** The v1 client: validation, buckets, retries, pagination and caching over undici. Knows nothing of MCP. */
export class ReplyInboxClient {
  readonly #apiKey: string;
  /** The key's public handle (safe to log). */
  readonly keyHandle: string;
  readonly log: Logger;
  private readonly http: Http;
  private readonly limiter: RateLimiter;
  private readonly timeouts: Timeouts;
  private readonly bodyLimits: BodyLimits;
  private readonly retry: RetryOptions;
  private readonly cache: ResponseCache<CallResult<unknown>>;
  private readonly userAgent: string;
  /** The longest retry-after believed, in seconds (two windows, as the limiter clamps it). */
  private readonly maxRetryAfter: number;
  private limitsReady: Promise<void> | null;
  private closed = false;
  private closing: Promise<void> | null = null;
  private readonly ending = new AbortController();
  /** Aborted when close() begins, with the reason a waiting question is given up: the server is shutting down. */
  readonly ended: AbortSignal = this.ending.signal;
  /** The deadline signal of every call under way (queued or sent): close() cuts them all. */
  private readonly underWay = new Set<AbortController>();
  /** Forgets the key in the redaction module once this client is closed. */
  private readonly releaseSecret: () => void;
  /** What deadlines and retry pauses are timed on (the limiter's windows too). */
  private readonly clock: Clock;

  constructor(o: ClientOptions) {
    if (typeof o.apiKey !== 'string' || o.apiKey.length === 0) throw new TypeError('apiKey is required');
    this.#apiKey = o.apiKey;
    // Every result, error and log line of the process is cleaned of this key, however the API echoes it.
    this.releaseSecret = o.apiKey.length >= 8 ? registerSecret(o.apiKey) : () => undefined;
    this.keyHandle = keyHandleOf(o.apiKey) ?? 'unknown';
    this.log = (o.logger ?? createLogger('reply-inbox-client', o.logLevel ?? 'warn')).child({ key: this.keyHandle });
    this.timeouts = { ...DEFAULT_TIMEOUTS, ...o.timeouts };
    this.bodyLimits = { ...DEFAULT_BODY_LIMITS, ...o.maxBodyBytes };
    this.retry = { ...DEFAULT_RETRY, ...o.retry };
    this.userAgent = o.userAgent ?? 'reply-inbox-mcp-client/0.1';
    this.http = new Http(o.baseUrl, this.timeouts);
    this.clock = o.clock ?? systemClock;
    const limiterOptions: LimiterOptions = {
      figures: SPEC_FIGURES,
      caps: o.limits ?? {},
      refillMarginMs: o.refillMarginMs ?? 50,
      fallbackWindowMs: o.fallbackWindowMs ?? 60_000,
      fastYield: o.fastYield ?? true,
      clock: o.clock,
      onEvent: (e) => {
        // A clamped header is said once per client: worth a line at the default level.
        if (e.type === 'header_clamped')
          this.log.warn({ limiter: e }, `the API's ${e.header} (${e.value}) points further ahead than two rate windows; read as ${e.boundMs} ms`);
        else this.log.debug({ limiter: e }, `limiter ${e.type}`);
        o.onLimiterEvent?.(e);
      },
    };
    this.maxRetryAfter = Math.ceil((WINDOWS_AHEAD * limiterOptions.fallbackWindowMs) / 1000);
    const store = o.sharedLimits;
    this.limiter = store ? store.limiterFor(o.apiKey, limiterOptions) : new Limiter(limiterOptions);
    this.cache = new ResponseCache(o.cache === false ? {} : { ...DEFAULT_CACHE_TTLS, ...o.cache });
    this.limitsReady = o.discoverLimits === false ? Promise.resolve() : null;
    if (o.me) {
      this.cache.set(`${ME.name} ${ME.path}`, o.me, this.cache.ttlOf(ME.name));
      this.applyMe(o.me.data);
      this.limitsReady = Promise.resolve();
    }
  }

  /** Call endpoint N of the table by name: path, query and body as its row takes them; the answer as it returns (ReturnOf). */
  call<N extends EndpointName>(name: N, ...[opts]: OptionalIfEmpty<CallOptions<N>>): Promise<CallResult<ReturnOf<N>>> {
    const e = ENDPOINT_BY_NAME.get(name);
    if (!e) return Promise.reject(new ValidationError('invalid_request', name, `Unknown endpoint '${name}'.`, 'endpoint'));
    // The row of N answers ReturnOf<N>: the client reads JSON as it comes (the MCP server checks it against the row's schema).
    return this.request(e, opts ?? {}) as Promise<CallResult<ReturnOf<N>>>;
  }

  /** Call a row of the table known only at run time (a tool's own endpoint): checked against the row as any call; the answer as it comes. */
  async request(e: Endpoint, opts: RowCallOptions = {}): Promise<CallResult<unknown>> {
    const prepared = prepare(e, opts);
    const ttl = this.cache.ttlOf(e.name);
    if (ttl > 0) {
      const key = `${e.name} ${prepared.target}`;
      if (opts.cache !== 'refresh') {
        const hit = this.cache.get(key);
        if (hit) return { ...hit.value, cachedAgeSeconds: hit.ageSeconds };
      }
      // Concurrent callers share one request; each still honours its own signal.
      const shared = this.cache.shared(key, async () => {
        const r = await this.send(prepared, { ...opts, signal: undefined });
        this.cache.set(key, r, ttl);
        return r;
      });
      return raceSignal(shared, opts.signal, () => new CancelledError(e.name, 'no'));
    }
    return this.send(prepared, opts);
  }

  /** download_attachment: the file's bytes and name. */
  async download(path: PathOf<'download_attachment'>, opts: CallControls = {}): Promise<BinaryResult> {
    const r = await this.call('download_attachment', { ...opts, path });
    return r as BinaryResult;
  }

  /** GET /v1/me (cached briefly); its rate_limits steer the limiter. */
  me(opts: CallControls = {}): Promise<CallResult<Me>> {
    return this.call('get_me', opts);
  }

  /** GET /v1/capabilities (cached briefly). */
  capabilities(opts: CallControls = {}): Promise<CallResult<ReturnOf<'get_capabilities'>>> {
    return this.call('get_capabilities', opts);
  }

  /** Every item of a list endpoint, page after page: `for await (const lead of client.paginate('list_leads', …))`. */
  async *paginate<N extends ListEndpointName>(
    name: N,
    ...[input, opts]: Record<never, never> extends RequestOf<N> ? [input?: RequestOf<N>, opts?: PageOptions] : [input: RequestOf<N>, opts?: PageOptions]
  ): AsyncGenerator<ItemOf<N>, void, undefined> {
    const e = ENDPOINT_BY_NAME.get(name);
    if (!e) throw new ValidationError('invalid_request', name, `${name} is not a list endpoint.`, 'endpoint');
    // The pages of N hold its items (ItemOf), read as they come, as call() reads them.
    yield* paginate(this, e, input ?? {}, opts ?? {}) as AsyncGenerator<ItemOf<N>, void, undefined>;
  }

  limiterState(): LimiterState {
    return this.limiter.state();
  }

  /**
   * The end of this client, as a server's drain ends: nothing is sent from now on. Every call
   * still queued answers at once "cancelled before it was sent" (CancelledError, sent 'no'); every
   * call the API has not answered yet is cut, a write among them answering outcome_unknown with
   * the read that settles it. Then the connections close.
   */
  close(): Promise<void> {
    this.closing ??= this.shut();
    return this.closing;
  }

  private async shut(): Promise<void> {
    this.closed = true;
    this.ending.abort(new Error('the server is shutting down'));
    // In this order, with no await between: the queue is emptied before a cut call frees a slot.
    const limiter = this.limiter.close();
    for (const c of [...this.underWay]) c.abort();
    await limiter;
    await this.http.close();
    this.releaseSecret();
  }

  /** Learn the limits from GET /v1/me once, before the first other call; failure keeps the defaults. */
  private ensureLimits(signal: AbortSignal | undefined): Promise<void> {
    if (!this.limitsReady) {
      this.limitsReady = this.me({ signal }).then(
        () => undefined,
        (err: unknown) => {
          this.limitsReady = null;
          this.log.warn({ err }, 'could not read rate limits from GET /v1/me; using the current figures');
        },
      );
    }
    return this.limitsReady;
  }

  private applyMe(data: unknown): void {
    const rl = (data as { rate_limits?: Record<string, unknown> } | null)?.rate_limits;
    if (!rl || typeof rl !== 'object') return;
    const num = (v: unknown) => (typeof v === 'number' && Number.isInteger(v) && v > 0 ? v : undefined);
    this.limiter.setFigures(
      {
        read: num(rl.read_per_minute),
        write: num(rl.write_per_minute),
        upstream: num(rl.upstream_per_minute),
        thread: num(rl.thread_per_minute),
        max_concurrent: num(rl.max_concurrent),
      } as Partial<RateFigures>,
      'me',
    );
  }

  /** Attempts under one deadline, each a fresh limiter job (never a bottleneck retry). */
  private async send(p: Prepared, opts: RowCallOptions): Promise<CallResult<unknown>> {
    const e = p.endpoint;
    const caller = opts.signal;
    if (caller?.aborted) throw new CancelledError(e.name, 'no');
    if (this.closed) throw new CancelledError(e.name, 'no', 'shutdown');
    if (!e.tellsLimits) await raceSignal(this.ensureLimits(undefined), caller, () => new CancelledError(e.name, 'no'));
    const deadlineMs = opts.deadlineMs ?? this.timeouts.deadlineMs;
    const deadlineAt = this.clock.now() + deadlineMs;
    // One signal for the attempts: aborted by the deadline or by the caller. Not AbortSignal.any:
    // its weak links keep every call's signal, and what listens on it, alive through young-generation
    // collections until a full one, which tripled the old space a long session grows to.
    const deadline = new AbortController();
    this.underWay.add(deadline);
    // A referenced timer: a call waiting for a refill keeps the process alive until its deadline.
    const timer = this.clock.setTimeout(() => deadline.abort(), deadlineMs);
    const onCallerAbort = () => deadline.abort(caller?.reason);
    caller?.addEventListener('abort', onCallerAbort, { once: true });
    const signal = deadline.signal;
    const aborted = (sent: Sent, waitingFor?: string): ReplyInboxError => {
      if (caller?.aborted) return new CancelledError(e.name, sent);
      if (this.closed) {
        // The drain ran out of time: a write the API may be applying is of unknown outcome, never "try again".
        const cut = new CancelledError(e.name, sent, 'shutdown');
        return sent === 'maybe' && e.write ? this.unknownOutcome(p, opts, cut) : cut;
      }
      const err = new TimeoutError(
        e.name,
        `${e.name} did not finish within its ${deadlineMs} ms deadline${waitingFor ? ` (still waiting for the ${waitingFor} bucket)` : ''}.`,
        'deadline',
        sent,
        waitingFor,
      );
      return sent === 'maybe' && e.write ? this.unknownOutcome(p, opts, err) : err;
    };
    try {
      for (let attempt = 1; ; attempt++) {
        let result: Attempt;
        try {
          result = await this.limiter.run(p.buckets, signal, () => this.exchange(p, signal), attempt > 1 ? PRIORITY_AGAIN : undefined, deadlineAt);
        } catch (err) {
          if (err instanceof Dropped) throw aborted('no', this.waitingFor(p.buckets));
          if (err instanceof NoTokenInTime) throw new BucketSpentError(e.name, err.bucket, err.refillAt, this.clock.now());
          if (err instanceof LimiterUnavailable) throw new LimiterUnavailableError(e.name, err.reason);
          // close() drops the calls still queued: they were never sent.
          if (this.closed) throw new CancelledError(e.name, 'no', 'shutdown');
          throw err;
        }
        if (result.ok) return this.shape(p, opts, result.res, attempt);
        const failure = result.error instanceof AbortedExchange ? aborted(result.error.sent) : result.error;
        if (failure instanceof ApiError) Object.assign(failure, { attempts: attempt });
        const d = decide(e, failure, attempt, this.retry);
        const pause = d.retry ? Math.max(d.delayMs, this.refillWait(failure)) : 0;
        if (
          !d.retry ||
          failure instanceof CancelledError ||
          (failure instanceof TimeoutError && failure.phase === 'deadline') ||
          this.clock.now() + pause >= deadlineAt
        ) {
          throw this.final(p, opts, failure);
        }
        this.log.warn({ endpoint: e.name, attempt, code: failure.code, waitMs: pause }, 'retrying');
        if (d.delayMs > 0) {
          try {
            await wait(this.clock, d.delayMs, signal);
          } catch {
            throw aborted('no');
          }
        }
      }
    } finally {
      this.clock.clearTimeout(timer);
      this.underWay.delete(deadline);
      caller?.removeEventListener('abort', onCallerAbort);
    }
  }

  /** After a 429 rate_limited, the retry waits in the queue until retry-after: count that against the deadline. */
  private refillWait(err: ReplyInboxError): number {
    return err instanceof ApiError && err.code === 'rate_limited' && err.retry_after !== undefined ? err.retry_after * 1000 : 0;
  }

  private waitingFor(buckets: readonly Bucket[]): string | undefined {
    const s = this.limiter.state();
    const empty = s.buckets.find((b) => buckets.includes(b.bucket) && b.available <= 0);
    return empty?.bucket;
  }

  /**
   * A write that may have been applied is reported as such, never resent. A 5xx counts
   * for a write that is not idempotent: a gateway may answer it after the API did the work.
   * A 408 counts for every write: a proxy gives up waiting, not the API; so does a 2xx too large
   * to read and a 3xx, neither of which says the write was refused.
   */
  private final(p: Prepared, opts: RowCallOptions, err: ReplyInboxError): ReplyInboxError {
    if (p.endpoint.write && (err instanceof NetworkError || err instanceof TimeoutError) && err.sent === 'maybe') {
      return this.unknownOutcome(p, opts, err);
    }
    if (p.endpoint.write && err instanceof ApiError && err.status === 408) return this.unknownOutcome(p, opts, err);
    // A success too large to read, or a redirect: the API may have done the work before the answer went wrong.
    if (p.endpoint.write && err instanceof ApiError && err.status >= 200 && err.status < 400) return this.unknownOutcome(p, opts, err);
    if (p.endpoint.write && !p.endpoint.idempotent && err instanceof ApiError && err.status >= 500) return this.unknownOutcome(p, opts, err);
    if (err instanceof ApiError && (err.status === 401 || err.status === 403)) this.cache.forget(`${ME.name} `);
    return err;
  }

  private unknownOutcome(p: Prepared, opts: RowCallOptions, err: ReplyInboxError): OutcomeUnknownError {
    return new OutcomeUnknownError(p.endpoint.name, checkHint(p.endpoint, opts.path ?? {}, opts.body), p.endpoint.idempotent, err);
  }

  /** One request; never throws: the limiter needs the settlement whatever happened. */
  private async exchange(p: Prepared, signal: AbortSignal): Promise<{ value: Attempt; settlement: Settlement }> {
    const e = p.endpoint;
    const headers: Record<string, string> = {
      authorization: `Bearer ${this.#apiKey}`,
      accept: e.returns === 'binary' ? 'application/octet-stream, application/json' : 'application/json',
      'user-agent': this.userAgent,
    };
    if (p.body !== undefined) headers['content-type'] = 'application/json';
    const started = Date.now();
    try {
      const maxBodyBytes = e.returns === 'binary' ? this.bodyLimits.binary : this.bodyLimits.json;
      const res = await this.http.send({ endpoint: e.name, method: e.method, path: p.target, headers, body: p.body, signal, maxBodyBytes });
      const info = readRateInfo(res.headers);
      const error = this.errorOf(p, res, info);
      this.log.debug(
        { endpoint: e.name, status: res.status, ms: Date.now() - started, bucket: info.bucket, remaining: info.remaining, code: error?.code },
        'request',
      );
      const settlement: Settlement = { kind: 'response', status: res.status, code: error?.code, info };
      return { value: error ? { ok: false, error, res } : { ok: true, res }, settlement };
    } catch (err) {
      const failure =
        err instanceof AbortedExchange || err instanceof NetworkError || err instanceof TimeoutError
          ? err
          : new NetworkError(e.name, 'The request failed.', 'maybe', undefined, err);
      this.log.debug({ endpoint: e.name, ms: Date.now() - started, failure: failure instanceof AbortedExchange ? 'aborted' : failure.code }, 'request failed');
      return { value: { ok: false, error: failure }, settlement: failure.sent === 'no' ? { kind: 'not_sent' } : { kind: 'lost' } };
    }
  }

  /** What an answer that is not a success means: too large, a request too long, the API's error, or a redirect. */
  private errorOf(p: Prepared, res: HttpResponse, info: RateInfo): ApiError | undefined {
    const e = p.endpoint;
    if (res.tooLarge) return tooLargeError(e, res);
    if (res.status === 414 || res.status === 431) return tooLongError(e, res.status, p.target);
    if (res.status >= 400) return apiErrorOf(e, res, { info, maxRetryAfter: this.maxRetryAfter });
    return res.status >= 300 ? redirectError(e, res) : undefined;
  }

  private shape(p: Prepared, opts: RowCallOptions, res: HttpResponse, attempts: number): CallResult<unknown> {
    const e = p.endpoint;
    const base = { status: res.status, headers: res.headers, buckets: p.buckets, attempts, rateLimit: readRateInfo(res.headers) };
    // A file is bytes whatever type it is served as: a JSON file is carried, not parsed (errors came as 4xx/5xx).
    if (e.returns === 'binary') {
      const disposition = res.headers['content-disposition'] ?? '';
      const name = /filename="([^"]*)"/.exec(disposition)?.[1] ?? null;
      const out: BinaryResult = { ...base, data: res.body, filename: name, contentType: res.headers['content-type'] ?? null };
      return out;
    }
    let data: unknown;
    try {
      data = res.body.length ? parseJson(res.body) : null;
    } catch (cause) {
      const err = unreadableError(e, res.status, cause, attempts);
      // A write answered 2xx was most likely applied, whatever came with the status.
      throw e.write ? this.unknownOutcome(p, opts, err) : err;
    }
    if (e.tellsLimits) this.applyMe(data);
    return { ...base, data };
  }
}

/** Settle with the promise, or reject at once when the signal fires. */
function raceSignal<T>(p: Promise<T>, signal: AbortSignal | undefined, onAbort: () => Error): Promise<T> {
  if (!signal) return p;
  if (signal.aborted) return Promise.reject(onAbort());
  return new Promise<T>((resolve, reject) => {
    const abort = () => reject(onAbort());
    signal.addEventListener('abort', abort, { once: true });
    p.then(
      (v) => {
        signal.removeEventListener('abort', abort);
        resolve(v);
      },
      (err: unknown) => {
        signal.removeEventListener('abort', abort);
        reject(err);
      },
    );
  });
}
