import type { Dispatcher } from 'undici';
// undici's index loads fetch, WebSocket, EventSource, the mock agents and the cache stores
// (≈110 files, and Node's own bundled undici through the web globals they touch): ≈35 ms of
// every start for two objects. The client takes those two from their own modules; the
// version is pinned, and test/client/undici-parts.test.ts fails if either stops being the
// object the index exports.
import Agent from 'undici/lib/dispatcher/agent.js';
import request from 'undici/lib/api/api-request.js';
import { NetworkError, type Sent, TimeoutError } from './errors.js';

export interface Timeouts {
  /** TCP/TLS connect. */
  connectMs: number;
  /** From sending to the response headers. */
  headersMs: number;
  /** Between two chunks of the response body. */
  bodyMs: number;
  /** The whole call: queue wait, every attempt and every backoff. A caller's deadlineMs overrides it. */
  deadlineMs: number;
}

/**
 * The most response body the client reads. Attachments: the spec's 25 MB, read as 25 MiB
 * so no file the API serves is refused. JSON: 16 MiB, far above the largest page the spec
 * allows (200 messages of a conversation), and small enough that parsing it stays cheap.
 */
export interface BodyLimits {
  binary: number;
  json: number;
}
export const DEFAULT_BODY_LIMITS: BodyLimits = { binary: 25 * 1024 * 1024, json: 16 * 1024 * 1024 };

/** The deadline stays under the 60 s request timeout common to MCP clients: a call answers before its client gives up. */
export const DEFAULT_TIMEOUTS: Timeouts = { connectMs: 5_000, headersMs: 20_000, bodyMs: 30_000, deadlineMs: 50_000 };

export interface HttpRequest {
  endpoint: string;
  method: string;
  /** Path and query, e.g. /v1/workspaces/acme/leads?limit=50. */
  path: string;
  headers: Record<string, string>;
  body?: string;
  signal: AbortSignal;
  /** Bytes of response body read at most; past it the body is dropped unread and `tooLarge` is set. */
  maxBodyBytes: number;
}

export interface HttpResponse {
  status: number;
  headers: Record<string, string>;
  /** Empty when the body was over maxBodyBytes. */
  body: Buffer;
  /** Set when the body passed maxBodyBytes (by its content-length, or while streaming): how many bytes were seen. */
  tooLarge?: { limit: number; seen: number; declared: boolean };
}

/** Thrown when the call's signal fired during the exchange; the client decides whether it was the caller or the deadline. */
export class AbortedExchange extends Error {
  constructor(readonly sent: Sent) {
    super('aborted');
  }
}

/** Codes that mean the connection was never made, so nothing reached the service. */
const NOT_SENT = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'ENETUNREACH', 'EHOSTUNREACH', 'UND_ERR_CONNECT_TIMEOUT']);

/** One keep-alive connection pool over undici, with explicit connect/headers/body timeouts. */
export class Http {
  private readonly agent: InstanceType<typeof Agent>;
  private readonly origin: string;

  constructor(
    baseUrl: string,
    private readonly timeouts: Timeouts,
  ) {
    this.origin = new URL(baseUrl).origin;
    this.agent = new Agent({
      connect: { timeout: timeouts.connectMs },
      headersTimeout: timeouts.headersMs,
      bodyTimeout: timeouts.bodyMs,
      keepAliveTimeout: 4_000,
      keepAliveMaxTimeout: 60_000,
    });
  }

  async send(req: HttpRequest): Promise<HttpResponse> {
    if (req.signal.aborted) throw new AbortedExchange('no');
    try {
      const res = await request.call(this.agent, {
        origin: this.origin,
        path: req.path,
        method: req.method as Dispatcher.HttpMethod,
        headers: req.headers,
        body: req.body,
        signal: req.signal,
        headersTimeout: this.timeouts.headersMs,
        bodyTimeout: this.timeouts.bodyMs,
      });
      const headers: Record<string, string> = {};
      for (const [k, v] of Object.entries(res.headers)) if (v !== undefined) headers[k] = Array.isArray(v) ? v.join(', ') : v;
      const read = await readCapped(res.body, Number(headers['content-length'] ?? Number.NaN), req.maxBodyBytes);
      return { status: res.statusCode, headers, ...read };
    } catch (err) {
      throw classify(req, err);
    }
  }

  close(): Promise<void> {
    return this.agent.close();
  }
}

/**
 * The body, unless it is over the limit: a declared length over it is refused before a
 * byte is read, and a streamed body is dropped as soon as it passes it, so an endless
 * or huge answer never sits in memory.
 */
async function readCapped(body: Dispatcher.ResponseData['body'], declared: number, limit: number): Promise<Pick<HttpResponse, 'body' | 'tooLarge'>> {
  if (declared > limit) {
    body.destroy();
    return { body: Buffer.alloc(0), tooLarge: { limit, seen: declared, declared: true } };
  }
  const chunks: Buffer[] = [];
  let seen = 0;
  for await (const chunk of body) {
    seen += (chunk as Buffer).length;
    if (seen > limit) {
      body.destroy();
      return { body: Buffer.alloc(0), tooLarge: { limit, seen, declared: false } };
    }
    chunks.push(chunk as Buffer);
  }
  return { body: Buffer.concat(chunks, seen) };
}

function classify(req: HttpRequest, err: unknown): Error {
  if (req.signal.aborted) return new AbortedExchange('maybe');
  const code = (err as { code?: unknown }).code;
  const c = typeof code === 'string' ? code : undefined;
  const what = `${req.method} ${req.path.split('?')[0]}`;
  if (c === 'UND_ERR_CONNECT_TIMEOUT') return new TimeoutError(req.endpoint, `Connecting for ${what} timed out.`, 'connect', 'no', undefined, err);
  if (c === 'UND_ERR_HEADERS_TIMEOUT') return new TimeoutError(req.endpoint, `No response headers for ${what} in time.`, 'headers', 'maybe', undefined, err);
  if (c === 'UND_ERR_BODY_TIMEOUT') return new TimeoutError(req.endpoint, `The response body of ${what} stalled.`, 'body', 'maybe', undefined, err);
  const sent: Sent = c !== undefined && NOT_SENT.has(c) ? 'no' : 'maybe';
  return new NetworkError(req.endpoint, `${what} failed on the connection (${c ?? 'unknown error'}).`, sent, c, err);
}
