import { mayHoldSecret, redactDeep } from '../redact.js';
import { ENDPOINT_BY_NAME, type Endpoint, type Me, errorEnvelopeSchema } from '../spec/index.js';
import type { CallResult } from './client.js';
import { ApiError } from './errors.js';
import { DEFAULT_BODY_LIMITS, DEFAULT_TIMEOUTS, Http, type HttpResponse, type Timeouts } from './http.js';
import { type RateInfo, readRateInfo } from './rate-headers.js';

/** A JSON body from the API, with any secret it echoes (in whatever form) redacted before anyone sees it. */
export function parseJson(body: Buffer): unknown {
  const text = body.toString('utf8');
  const data: unknown = JSON.parse(text);
  return mayHoldSecret(text) ? redactDeep(data) : data;
}

/** An answer of the API that is an error, in the API's own terms when it sent its envelope. */
export function apiErrorOf(e: Endpoint, res: HttpResponse, info: RateInfo = readRateInfo(res.headers)): ApiError {
  let parsed: unknown;
  try {
    parsed = parseJson(res.body);
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
      retry_after: x.retry_after ?? info.retryAfter,
    });
  }
  const code = res.status === 429 ? 'rate_limited' : res.status === 502 ? 'upstream_error' : res.status >= 500 ? 'internal_error' : `http_${res.status}`;
  return new ApiError({
    status: res.status,
    code,
    message: `${e.name} answered HTTP ${res.status} without an error body.`,
    endpoint: e.name,
    retry_after: info.retryAfter,
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

const GET_ME = ENDPOINT_BY_NAME.get('get_me')!;

/**
 * GET /v1/me for keys nobody vouched for yet, over one connection pool shared by all of them:
 * a key costs nothing here beyond its request, so keys the API refuses (made up by a caller)
 * leave nothing behind. An accepted key's answer seeds its full client (ClientOptions.me).
 */
export class KeyProbe {
  private readonly http: Http;

  constructor(
    baseUrl: string,
    private readonly userAgent: string,
    timeouts: Partial<Timeouts> = {},
  ) {
    this.http = new Http(baseUrl, { ...DEFAULT_TIMEOUTS, ...timeouts });
  }

  /** The key's GET /v1/me answer, or the API's refusal as an ApiError. */
  async me(apiKey: string, signal: AbortSignal = AbortSignal.timeout(DEFAULT_TIMEOUTS.headersMs)): Promise<CallResult<Me>> {
    // The key is not registered with the redaction here: each registration compiles a new
    // pattern of every known secret, which for a flood of made-up keys cost 257 MB of RSS and
    // 13x the time over 3,000 keys. Its key shape is still redacted, and a refusal goes back
    // only to the caller who sent the key.
    const res = await this.http.send({
      endpoint: GET_ME.name,
      method: 'GET',
      path: '/v1/me',
      headers: { authorization: `Bearer ${apiKey}`, accept: 'application/json', 'user-agent': this.userAgent },
      signal,
      maxBodyBytes: DEFAULT_BODY_LIMITS.json,
    });
    if (res.tooLarge) throw tooLargeError(GET_ME, res);
    if (res.status >= 400) throw apiErrorOf(GET_ME, res);
    let data: unknown;
    try {
      data = parseJson(res.body);
    } catch {
      throw new ApiError({ status: res.status, code: 'invalid_response', message: 'get_me answered with a body that is not JSON.', endpoint: GET_ME.name });
    }
    return { data: data as Me, status: res.status, headers: res.headers, buckets: [GET_ME.bucket], attempts: 1, rateLimit: readRateInfo(res.headers) };
  }

  close(): Promise<void> {
    return this.http.close();
  }
}
