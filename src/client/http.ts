import { Agent as HttpAgent, type IncomingMessage, request as httpRequest } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
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
const NOT_SENT = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'ENETUNREACH', 'EHOSTUNREACH', 'CONNECT_TIMEOUT', 'CLOSED']);

/** An error carrying a code, as Node's own socket errors do. */
const coded = (code: string, message: string) => Object.assign(new Error(message), { code });

/**
 * One keep-alive connection pool over Node's own http/https, with explicit connect/headers/body
 * timeouts. Node's modules are already in the binary: an npm HTTP client cost ≈ 60 ms of start-up.
 */
export class Http {
  private readonly agent: HttpAgent;
  private readonly target: { protocol: string; hostname: string; port: string };
  private readonly send1: typeof httpRequest;
  private readonly inFlight = new Set<Promise<unknown>>();
  private closed = false;

  constructor(
    baseUrl: string,
    private readonly timeouts: Timeouts,
  ) {
    const url = new URL(baseUrl);
    // Host and port given apart: each request then skips parsing a URL.
    this.target = { protocol: url.protocol, hostname: url.hostname.replace(/^\[|\]$/g, ''), port: url.port };
    const secure = url.protocol === 'https:';
    // timeout: an idle pooled socket is closed after 4 s, before a server's usual 5 s keep-alive ends it.
    this.agent = new (secure ? HttpsAgent : HttpAgent)({ keepAlive: true, timeout: 4_000 });
    this.send1 = secure ? httpsRequest : httpRequest;
  }

  async send(req: HttpRequest): Promise<HttpResponse> {
    if (req.signal.aborted) throw new AbortedExchange('no');
    if (this.closed) throw classify(req, coded('CLOSED', 'the client is closed'));
    const exchange = this.exchange(req);
    this.inFlight.add(exchange);
    try {
      return await exchange;
    } catch (err) {
      throw classify(req, err);
    } finally {
      this.inFlight.delete(exchange);
    }
  }

  private exchange(req: HttpRequest): Promise<HttpResponse> {
    const t = this.timeouts;
    return new Promise<HttpResponse>((resolve, reject) => {
      const headers: Record<string, string | number> = { ...req.headers };
      if (req.body !== undefined) headers['content-length'] = Buffer.byteLength(req.body);
      const r = this.send1({ ...this.target, path: req.path, agent: this.agent, method: req.method, headers, signal: req.signal });
      let timer: NodeJS.Timeout | undefined;
      /** One timer at a time: connect, then headers, then the gap between two body chunks. */
      const arm = (ms: number, code: string, message: string, on: { destroy(e: Error): void } = r) => {
        clearTimeout(timer);
        timer = setTimeout(() => on.destroy(coded(code, message)), ms);
      };
      const disarm = () => clearTimeout(timer);
      r.once('socket', (socket) => {
        const connected = () => arm(t.headersMs, 'HEADERS_TIMEOUT', 'no response headers in time');
        if (!socket.connecting) return connected();
        arm(t.connectMs, 'CONNECT_TIMEOUT', 'connecting timed out');
        socket.once(this.send1 === httpsRequest ? 'secureConnect' : 'connect', connected);
      });
      r.once('error', (e) => {
        disarm();
        reject(e);
      });
      r.once('response', (res) => {
        const out: Record<string, string> = {};
        for (const [k, v] of Object.entries(res.headers)) if (v !== undefined) out[k] = Array.isArray(v) ? v.join(', ') : v;
        arm(t.bodyMs, 'BODY_TIMEOUT', 'the response body stalled', res);
        readCapped(
          res,
          Number(out['content-length'] ?? Number.NaN),
          req.maxBodyBytes,
          () => timer!.refresh(),
          (e, read) => {
            disarm();
            if (e) reject(e);
            else resolve({ status: res.statusCode ?? 0, headers: out, ...read! });
          },
        );
      });
      r.end(req.body);
    });
  }

  /** Lets the exchanges in flight finish, then closes every connection. */
  async close(): Promise<void> {
    this.closed = true;
    await Promise.allSettled([...this.inFlight]);
    this.agent.destroy();
  }
}

/**
 * The body, unless it is over the limit: a declared length over it is refused before a
 * byte is read, and a streamed body is dropped as soon as it passes it, so an endless
 * or huge answer never sits in memory. Events, not an async iterator: it is the hot path.
 */
function readCapped(
  body: IncomingMessage,
  declared: number,
  limit: number,
  onChunk: () => void,
  done: (e: Error | null, read?: Pick<HttpResponse, 'body' | 'tooLarge'>) => void,
): void {
  if (declared > limit) {
    body.destroy();
    done(null, { body: Buffer.alloc(0), tooLarge: { limit, seen: declared, declared: true } });
    return;
  }
  const chunks: Buffer[] = [];
  let seen = 0;
  const onData = (chunk: Buffer) => {
    onChunk();
    seen += chunk.length;
    if (seen <= limit) return void chunks.push(chunk);
    body.off('data', onData);
    body.destroy();
    done(null, { body: Buffer.alloc(0), tooLarge: { limit, seen, declared: false } });
  };
  body.on('data', onData);
  body.once('end', () => done(null, { body: Buffer.concat(chunks, seen) }));
  body.once('error', (e) => done(e));
}

function classify(req: HttpRequest, err: unknown): Error {
  if (req.signal.aborted) return new AbortedExchange('maybe');
  const code = (err as { code?: unknown }).code;
  const c = typeof code === 'string' ? code : undefined;
  const what = `${req.method} ${req.path.split('?')[0]}`;
  if (c === 'CONNECT_TIMEOUT') return new TimeoutError(req.endpoint, `Connecting for ${what} timed out.`, 'connect', 'no', undefined, err);
  if (c === 'HEADERS_TIMEOUT') return new TimeoutError(req.endpoint, `No response headers for ${what} in time.`, 'headers', 'maybe', undefined, err);
  if (c === 'BODY_TIMEOUT') return new TimeoutError(req.endpoint, `The response body of ${what} stalled.`, 'body', 'maybe', undefined, err);
  const sent: Sent = c !== undefined && NOT_SENT.has(c) ? 'no' : 'maybe';
  return new NetworkError(req.endpoint, `${what} failed on the connection (${c ?? 'unknown error'}).`, sent, c, err);
}
