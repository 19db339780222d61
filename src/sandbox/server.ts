import { type IncomingMessage, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Logger } from 'pino';
import { BODY_LIMITS } from '../api/bodies.js';
import { bucketsFor } from '../api/endpoints.js';
import { authenticate, requireScope, resolveWorkspace } from './auth.js';
import type { Ctx, Handlers } from './context.js';
import { SandboxError, fail } from './errors.js';
import type { FaultPlan } from './faults.js';
import type { RateLimits } from './limits.js';
import type { Cursors } from './paging.js';
import { route } from './router.js';
import type { Store } from './store/store.js';
import { checkPathIds, parseBody, parseQuery, searchWindow } from './validate.js';

export interface ServerParts {
  store: Store;
  handlers: Handlers;
  limits: RateLimits;
  faults: FaultPlan;
  cursors: Cursors;
  log: Logger;
}

const JSON_TYPE = 'application/json; charset=utf-8';

async function readBody(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > BODY_LIMITS.payload_bytes) fail('invalid_request', `Request body over ${BODY_LIMITS.payload_bytes} bytes.`);
    chunks.push(chunk as Buffer);
  }
  if (size === 0) return undefined;
  const type = req.headers['content-type'] ?? '';
  if (!/^application\/json\b/i.test(type)) fail('invalid_request', 'A request with a body must carry Content-Type: application/json.');
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch {
    fail('invalid_request', 'The request body is not valid JSON.');
  }
}

/**
 * Content-Disposition for any file name: a plain ASCII name as is; otherwise an ASCII
 * fallback and the exact name in RFC 5987 form (a header value cannot carry it raw).
 */
export function contentDisposition(filename: string): string {
  const ascii = filename.replace(/[^\x20-\x7e]|["\\]/g, '_');
  if (ascii === filename) return `attachment; filename="${ascii}"`;
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(filename).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)}`;
}

export function createSandboxServer(parts: ServerParts) {
  const { store, handlers, limits, faults, cursors, log } = parts;
  const sockets = new Set<Socket>();

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const started = Date.now();
    const url = new URL(req.url ?? '/', 'http://sandbox');
    const method = req.method ?? 'GET';
    let who: string | null = null;
    let entered = false;
    let buckets: ReturnType<typeof bucketsFor> = ['read'];
    const reset = faults.reset();
    const drop = () => {
      req.socket.destroy();
    };
    const send = (status: number, body: unknown, extraHeaders: Record<string, string> = {}) => {
      if (reset === 'after') return drop();
      const headers: Record<string, string> = { 'content-type': JSON_TYPE, ...extraHeaders };
      if (who && limits.enabled) {
        const s = limits.report(who, buckets);
        headers['x-ratelimit-limit'] = String(s.limit);
        headers['x-ratelimit-remaining'] = String(s.remaining);
        headers['x-ratelimit-reset'] = String(s.reset);
        headers['x-ratelimit-bucket'] = s.bucket;
      }
      res.writeHead(status, headers);
      res.end(JSON.stringify(body));
    };
    try {
      if (reset === 'before') {
        faults.injected.reset_before++;
        return drop();
      }
      const match = route(method, url.pathname);
      if (match.kind === 'none') fail('not_found', `No endpoint ${method} ${url.pathname}.`);
      if (match.kind === 'method') fail('not_found', `No endpoint ${method} ${url.pathname} (this path takes ${match.allowed.join(', ')}).`);
      const e = match.endpoint;
      const now = new Date();
      const caller = authenticate(store, req.headers.authorization, now);
      who = caller.key.id;
      buckets = bucketsFor(e, Object.fromEntries(url.searchParams));
      if (!limits.enter(who)) {
        limits.refuse(who, 'too_many_concurrent');
        throw new SandboxError('too_many_concurrent', `More than ${limits.maxConcurrent} requests in flight for this key.`, { retry_after: 1 });
      }
      entered = true;
      // Added latency holds the in-flight slot, as a slow service would.
      if (faults.faults.latency_ms > 0) await sleep(faults.faults.latency_ms);
      const exhausted = limits.spend(who, buckets);
      if (exhausted) {
        limits.refuse(who, 'rate_limited');
        const retry = Math.max(1, Math.ceil(exhausted.resetInMs / 1000));
        throw new SandboxError('rate_limited', `The ${exhausted.bucket} bucket is exhausted for this key.`, { retry_after: retry });
      }
      caller.key.last_used_at = now.toISOString().replace(/\.\d{3}Z$/, 'Z');
      requireScope(caller, e.scope);
      checkPathIds(e, match.path);
      const ws = match.path.workspace !== undefined ? resolveWorkspace(store, caller, match.path.workspace) : null;
      const query = parseQuery(e, url.searchParams);
      const body = parseBody(e, await readBody(req));
      const window = searchWindow(e, query, now);
      if (method === 'GET' && buckets[0] === 'upstream' && faults.upstreamError()) {
        faults.injected.upstream_error++;
        fail('upstream_error', 'The sending platform did not answer (injected fault). Retry later.');
      }
      const ctx: Ctx = {
        store,
        endpoint: e,
        caller,
        ws,
        path: match.path,
        query,
        body,
        window,
        cursors,
        faults,
        limits,
        now: () => new Date(),
        page: () => ({
          limit: query.limit as number | undefined,
          cursor: query.cursor as string | undefined,
          order: query.order as 'asc' | 'desc' | undefined,
        }),
      };
      const handler = handlers[e.name];
      if (!handler) fail('internal_error', `${e.name} is not implemented in the sandbox.`);
      const result = await handler(ctx);
      if (reset === 'after') faults.injected.reset_after++;
      if ('binary' in result) {
        if (reset === 'after') return drop();
        const headers: Record<string, string> = {
          'content-type': 'application/octet-stream',
          'content-disposition': contentDisposition(result.filename),
          'cache-control': 'no-store',
          'content-length': String(result.binary.length),
        };
        if (limits.enabled) {
          const s = limits.report(who, buckets);
          Object.assign(headers, {
            'x-ratelimit-limit': String(s.limit),
            'x-ratelimit-remaining': String(s.remaining),
            'x-ratelimit-reset': String(s.reset),
            'x-ratelimit-bucket': s.bucket,
          });
        }
        res.writeHead(200, headers);
        res.end(result.binary);
      } else {
        send(result.status ?? e.status, result.body);
      }
    } catch (err) {
      if (err instanceof SandboxError) {
        const extra: Record<string, string> = {};
        if (err.extra.retry_after !== undefined) extra['retry-after'] = String(err.extra.retry_after);
        send(err.status, err.toBody(), extra);
      } else {
        log.error({ err }, 'sandbox handler failed');
        send(500, { error: { code: 'internal_error', message: 'The sandbox failed on this request.' } });
      }
    } finally {
      if (entered && who) limits.leave(who);
      log.debug({ method, path: url.pathname, ms: Date.now() - started, status: res.statusCode }, 'request');
    }
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((err) => {
      log.error({ err }, 'sandbox request crashed');
      if (!res.headersSent) res.writeHead(500, { 'content-type': JSON_TYPE });
      res.end();
    });
  });
  server.keepAliveTimeout = 5_000;
  server.on('connection', (s: Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });

  return {
    server,
    listen(port: number, host: string): Promise<AddressInfo> {
      return new Promise((resolve, reject) => {
        server.once('error', reject);
        server.listen(port, host, () => resolve(server.address() as AddressInfo));
      });
    },
    close(): Promise<void> {
      return new Promise((resolve) => {
        server.close(() => resolve());
        for (const s of sockets) s.destroy();
      });
    },
  };
}
