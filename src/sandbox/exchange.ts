import type { IncomingMessage, ServerResponse } from 'node:http';
import { BODY_LIMITS } from '../api/bodies.js';
import type { SearchWindow } from '../api/checks.js';
import { type Endpoint, bucketsFor } from '../api/endpoints.js';
import { type Clock, wait } from '../clock.js';
import { type Caller, authenticate, requireScope, resolveWorkspace } from './auth.js';
import type { Ctx, HandlerResult } from './context.js';
import { SandboxError, fail } from './errors.js';
import type { Logger } from 'pino';
import type { Handlers } from './context.js';
import type { FaultPlan } from './faults.js';
import type { RateLimits } from './limits.js';
import type { Cursors } from './paging.js';
import type { Store } from './store/store.js';
import { route } from './router.js';
import type { WorkspaceRec } from './store/types.js';
import { checkPathIds, parseBody, parseQuery, searchWindow } from './validate.js';

const JSON_TYPE = 'application/json; charset=utf-8';

/** What the sandbox's server is made of: the store, the handlers, and the rules every request meets. */
export interface ServerParts {
  store: Store;
  handlers: Handlers;
  limits: RateLimits;
  faults: FaultPlan;
  cursors: Cursors;
  log: Logger;
  /** The time requests are handled at (what writes stamp, the age of a cached conversation). */
  clock: SandboxClock;
}

/** Date.now and Node's timers unless a test replaces them, to move the sandbox's time when it chooses. */
export type SandboxClock = Pick<Clock, 'now' | 'setTimeout' | 'clearTimeout'>;

/** One request on its way through the stages: what each stage learnt, for the next. */
export interface Exchange {
  readonly req: IncomingMessage;
  readonly res: ServerResponse;
  readonly parts: ServerParts;
  readonly url: URL;
  readonly method: string;
  /** A reset fault drawn for this request: the connection drops before or after the work. */
  readonly reset: 'before' | 'after' | null;
  now: Date;
  /** The key's id once authenticated: the rate headers describe its buckets from then on. */
  who: string | null;
  /** Whether this request holds one of the key's in-flight slots. */
  entered: boolean;
  buckets: ReturnType<typeof bucketsFor>;
  endpoint?: Endpoint;
  path?: Record<string, string>;
  caller?: Caller;
  ws?: WorkspaceRec | null;
  query?: Record<string, unknown>;
  body?: unknown;
  window?: SearchWindow | null;
}

type Stage = (x: Exchange) => void | Promise<void>;

/**
 * What happens to every request before its handler, in order: each stage may refuse with a
 * SandboxError, and what it refuses is refused before anything later runs (a request over
 * its bucket is never parsed; one without a key never spends a token).
 */
const STAGES: readonly Stage[] = [routeRequest, authenticateKey, takeSlot, addLatency, spendTokens, checkAccess, parseInput, upstreamFault];

/** The endpoint the method and path name, and its path ids. */
function routeRequest(x: Exchange): void {
  const match = route(x.method, x.url.pathname);
  if (match.kind === 'none') fail('not_found', `No endpoint ${x.method} ${x.url.pathname}.`);
  if (match.kind === 'method') fail('not_found', `No endpoint ${x.method} ${x.url.pathname} (this path takes ${match.allowed.join(', ')}).`);
  x.endpoint = match.endpoint;
  x.path = match.path;
  x.buckets = bucketsFor(x.endpoint, Object.fromEntries(x.url.searchParams));
}

function authenticateKey(x: Exchange): void {
  x.caller = authenticate(x.parts.store, x.req.headers.authorization, x.now);
  x.who = x.caller.key.id;
}

/** One of the key's in-flight slots, or 429 too_many_concurrent. */
function takeSlot(x: Exchange): void {
  const { limits } = x.parts;
  if (!limits.enter(x.who!)) {
    limits.refuse(x.who!, 'too_many_concurrent');
    throw new SandboxError('too_many_concurrent', `More than ${limits.maxConcurrent} requests in flight for this key.`, { retry_after: 1 });
  }
  x.entered = true;
}

/** Added latency holds the in-flight slot, as a slow service would. */
async function addLatency(x: Exchange): Promise<void> {
  const ms = x.parts.faults.faults.latency_ms;
  if (ms > 0) await wait(x.parts.clock, ms);
}

/** A token of each bucket the call spends, or 429 rate_limited naming the spent bucket. */
function spendTokens(x: Exchange): void {
  const { limits } = x.parts;
  const exhausted = limits.spend(x.who!, x.buckets);
  if (!exhausted) return;
  limits.refuse(x.who!, 'rate_limited');
  const retry = Math.max(1, Math.ceil(exhausted.resetInMs / 1000));
  throw new SandboxError('rate_limited', `The ${exhausted.bucket} bucket is exhausted for this key.`, { retry_after: retry });
}

/** The key's scope, the path ids' kinds and the workspace within the key's reach. */
function checkAccess(x: Exchange): void {
  const caller = x.caller!;
  caller.key.last_used_at = x.now.toISOString().replace(/\.\d{3}Z$/, 'Z');
  requireScope(caller, x.endpoint!.scope);
  checkPathIds(x.endpoint!, x.path!);
  x.ws = x.path!.workspace !== undefined ? resolveWorkspace(x.parts.store, caller, x.path!.workspace) : null;
}

/** Query, body and date window, checked by the endpoint table. */
async function parseInput(x: Exchange): Promise<void> {
  const e = x.endpoint!;
  x.query = parseQuery(e, x.url.searchParams);
  x.body = parseBody(e, await readBody(x.req));
  x.window = searchWindow(e, x.query, x.now);
}

/** An injected failure of the sending platform, on reads that reach it. */
function upstreamFault(x: Exchange): void {
  const { faults } = x.parts;
  if (x.method === 'GET' && x.buckets[0] === 'upstream' && faults.upstreamError()) {
    faults.injected.upstream_error++;
    fail('upstream_error', 'The sending platform did not answer (injected fault). Retry later.');
  }
}

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

/** What the handler receives: everything the stages established. */
function contextOf(x: Exchange): Ctx {
  const { store, cursors, faults, limits } = x.parts;
  const query = x.query ?? {};
  return {
    store,
    endpoint: x.endpoint!,
    caller: x.caller!,
    ws: x.ws ?? null,
    path: x.path!,
    query,
    body: x.body,
    window: x.window ?? null,
    cursors,
    faults,
    limits,
    now: () => new Date(x.parts.clock.now()),
    page: () => ({
      limit: query.limit as number | undefined,
      cursor: query.cursor as string | undefined,
      order: query.order as 'asc' | 'desc' | undefined,
    }),
  };
}

/**
 * The rate headers on every answer while limits are on (Limits: every response carries them):
 * the key's bucket with the least left; before a key is known (401, a test key's 403, an
 * unknown path), the bucket the request names as it stands for no key, nothing spent.
 */
function rateHeaders(x: Exchange): Record<string, string> {
  const { limits } = x.parts;
  if (!limits.enabled) return {};
  const s = x.who ? limits.report(x.who, x.buckets) : limits.unspent(x.buckets);
  return {
    'x-ratelimit-limit': String(s.limit),
    'x-ratelimit-remaining': String(s.remaining),
    'x-ratelimit-reset': String(s.reset),
    'x-ratelimit-bucket': s.bucket,
  };
}

/** Write the answer, JSON or a file; a reset fault after the work drops the connection instead. */
function respond(x: Exchange, status: number, answer: { json: unknown } | { file: Buffer; filename: string }, extra: Record<string, string> = {}): void {
  if (x.reset === 'after') {
    x.req.socket.destroy();
    return;
  }
  const headers =
    'file' in answer
      ? {
          'content-type': 'application/octet-stream',
          'content-disposition': contentDisposition(answer.filename),
          'cache-control': 'no-store',
          'content-length': String(answer.file.length),
        }
      : { 'content-type': JSON_TYPE };
  x.res.writeHead(status, { ...headers, ...extra, ...rateHeaders(x) });
  x.res.end('file' in answer ? answer.file : JSON.stringify(answer.json));
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

/** The handler's answer as the wire carries it. */
function answerOf(x: Exchange, result: HandlerResult): void {
  if (x.reset === 'after') x.parts.faults.injected.reset_after++;
  if ('binary' in result) respond(x, 200, { file: result.binary, filename: result.filename });
  else respond(x, result.status ?? x.endpoint!.status, { json: result.body });
}

/** A refusal as the API's error envelope; anything else is the sandbox's own failure. */
function failureOf(x: Exchange, err: unknown): void {
  if (err instanceof SandboxError) {
    const extra: Record<string, string> = err.extra.retry_after !== undefined ? { 'retry-after': String(err.extra.retry_after) } : {};
    respond(x, err.status, { json: err.toBody() }, extra);
    return;
  }
  x.parts.log.error({ err }, 'sandbox handler failed');
  respond(x, 500, { json: { error: { code: 'internal_error', message: 'The sandbox failed on this request.' } } });
}

/** One request: the stages in order, then the endpoint's handler, then the answer with its rate headers. */
export async function handleRequest(parts: ServerParts, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const started = Date.now();
  const x: Exchange = {
    req,
    res,
    parts,
    url: new URL(req.url ?? '/', 'http://sandbox'),
    method: req.method ?? 'GET',
    reset: parts.faults.reset(),
    now: new Date(parts.clock.now()),
    who: null,
    entered: false,
    buckets: ['read'],
  };
  try {
    if (x.reset === 'before') {
      parts.faults.injected.reset_before++;
      req.socket.destroy();
      return;
    }
    for (const stage of STAGES) await stage(x);
    const handler = parts.handlers[x.endpoint!.name];
    if (!handler) fail('internal_error', `${x.endpoint!.name} is not implemented in the sandbox.`);
    answerOf(x, await handler(contextOf(x)));
  } catch (err) {
    failureOf(x, err);
  } finally {
    if (x.entered && x.who) parts.limits.leave(x.who);
    parts.log.debug({ method: x.method, path: x.url.pathname, ms: Date.now() - started, status: res.statusCode }, 'request');
  }
}
