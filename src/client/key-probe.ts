import { withSecret } from '../redact.js';
import { endpoint } from '../api/endpoints.js';
import type { Me } from '../api/resources.js';
import { apiErrorOf, parseJson, tooLargeError, unreadableError } from './answers.js';
import type { CallResult } from './call-types.js';
import { NetworkError } from './errors.js';
import { DEFAULT_BODY_LIMITS, DEFAULT_TIMEOUTS, Http, type Timeouts } from './http.js';
import { readRateInfo } from './limiter/rate-headers.js';

const GET_ME = endpoint('get_me');

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
    // The answer is cleaned of this key before it is parsed, in any form the API echoes it, though
    // the key is not registered: each registration compiles a new pattern of every known secret,
    // which for a flood of made-up keys cost 257 MB of RSS and 13x the time over 3,000 keys.
    const redactor = withSecret(apiKey);
    const res = await this.send(apiKey, signal).catch((e: unknown) => {
      // A pooled connection the API closed while idle fails the request it was given; a GET is
      // safe to send again, once, on a fresh one (a busy server's timers run late).
      if (e instanceof NetworkError && !signal.aborted) return this.send(apiKey, signal);
      throw e;
    });
    if (res.tooLarge) throw tooLargeError(GET_ME, res);
    if (res.status >= 400) throw apiErrorOf(GET_ME, res, { redactor });
    let data: unknown;
    try {
      data = parseJson(res.body, redactor);
    } catch (cause) {
      throw unreadableError(GET_ME, res.status, cause);
    }
    return { data: data as Me, status: res.status, headers: res.headers, buckets: [GET_ME.bucket], attempts: 1, rateLimit: readRateInfo(res.headers) };
  }

  private send(apiKey: string, signal: AbortSignal) {
    return this.http.send({
      endpoint: GET_ME.name,
      method: 'GET',
      path: '/v1/me',
      headers: { authorization: `Bearer ${apiKey}`, accept: 'application/json', 'user-agent': this.userAgent },
      signal,
      maxBodyBytes: DEFAULT_BODY_LIMITS.json,
    });
  }

  close(): Promise<void> {
    return this.http.close();
  }
}
