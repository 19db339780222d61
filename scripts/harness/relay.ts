import { type IncomingMessage, type ServerResponse, createServer, request } from 'node:http';
import { listenLoopback } from './listen.js';

export interface Seen {
  method: string;
  /** The raw request target as sent (path and query), before any URL normalisation. */
  url: string;
  status: number | null;
}

export interface Canned {
  status: number;
  body: string | Buffer;
  contentType?: string;
  /** Headers besides the content type (rate headers, a disposition). */
  headers?: Record<string, string>;
}

export interface Relay {
  url: string;
  /** Every request that reached the relay, in order. */
  readonly seen: Seen[];
  /** The same requests as "METHOD /path?query". */
  readonly requests: string[];
  /** Answer some requests itself (bad bodies, echoed headers) instead of passing them on. */
  override: ((req: IncomingMessage) => Canned | null) | null;
  /**
   * Hold some requests before passing them on (a slow API, or one a test releases when it
   * chooses): the request goes on once the promise resolves, unless its sender has gone by then.
   */
  hold: ((req: IncomingMessage) => Promise<void> | null) | null;
  close(): Promise<void>;
}

/**
 * An HTTP relay in front of an API that records every request at the socket, before the
 * API routes or authenticates it: it sees every request the MCP server sends, whatever
 * its path, status or rate bucket, and no rate window can reset the count.
 */
export async function startRelay(target: string): Promise<Relay> {
  const upstream = new URL(target);
  const seen: Seen[] = [];
  const relay: Relay = {
    url: '',
    seen,
    get requests() {
      return seen.map((s) => `${s.method} ${s.url}`);
    },
    override: null,
    hold: null,
    close: async () => undefined,
  };
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const entry: Seen = { method: req.method ?? '', url: req.url ?? '', status: null };
    seen.push(entry);
    const canned = relay.override?.(req) ?? null;
    if (canned) {
      entry.status = canned.status;
      req.resume();
      res.writeHead(canned.status, { 'content-type': canned.contentType ?? 'application/json', ...canned.headers });
      res.end(canned.body);
      return;
    }
    const held = relay.hold?.(req) ?? null;
    if (!held) return forward(req, res, upstream, entry);
    void held.then(() => {
      if (req.socket.destroyed) req.destroy();
      else forward(req, res, upstream, entry);
    });
  });
  const listening = await listenLoopback(server);
  relay.url = listening.url;
  relay.close = listening.close;
  return relay;
}

/** Pass one request on to `upstream` (same path and headers) and stream the answer back as it comes, SSE included; `fresh`: on a connection of its own. */
function forward(req: IncomingMessage, res: ServerResponse, upstream: URL, entry: { status: number | null }, fresh = false): void {
  const to = { host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: req.headers };
  const out = request(fresh ? { ...to, agent: false } : to, (up) => {
    entry.status = up.statusCode ?? null;
    res.writeHead(up.statusCode ?? 502, up.headers);
    up.pipe(res);
  });
  out.on('error', () => res.destroy());
  // The client went away (a listen stream closed): the request upstream ends with it.
  res.once('close', () => {
    if (!res.writableFinished) out.destroy();
  });
  req.pipe(out);
}

export interface Passed extends Seen {
  /** Which target answered it (its index in the list the balancer was given). */
  target: number;
  /** The request's Mcp-Method and Mcp-Name headers, as a 2026-07-28 client sends them. */
  mcpMethod?: string;
  mcpName?: string;
  /** The request as it came, to send again (a replay). */
  headers: Record<string, string>;
  body: string;
}

export interface RoundRobin {
  url: string;
  /** Every request, in the order it arrived, with the target it was sent to. */
  readonly passed: Passed[];
  /** Send nothing more to this target, as a balancer does once its health check fails. */
  drop(target: number): void;
  close(): Promise<void>;
}

/**
 * A load balancer with no affinity: each request that arrives goes to the next target in
 * turn, whatever its headers or connection, and both bodies stream through as they come.
 */
export async function startRoundRobin(targets: string[]): Promise<RoundRobin> {
  const upstreams = targets.map((t) => new URL(t));
  const passed: Passed[] = [];
  const live = upstreams.map((_, i) => i);
  let next = 0;
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const target = live[next++ % live.length]!;
    const headers = Object.fromEntries(Object.entries(req.headers).filter((e): e is [string, string] => typeof e[1] === 'string'));
    const entry: Passed = { method: req.method ?? '', url: req.url ?? '', status: null, target, headers, body: '' };
    req.on('data', (c: Buffer) => (entry.body += c.toString('utf8')));
    const { 'mcp-method': mcpMethod, 'mcp-name': mcpName } = req.headers;
    if (typeof mcpMethod === 'string') entry.mcpMethod = mcpMethod;
    if (typeof mcpName === 'string') entry.mcpName = mcpName;
    passed.push(entry);
    // A connection of its own to the instance: none is reused just as the instance's keep-alive ends it.
    forward(req, res, upstreams[target]!, entry, true);
  });
  const listening = await listenLoopback(server);
  const drop = (target: number) => {
    if (live.length > 1 && live.includes(target)) live.splice(live.indexOf(target), 1);
  };
  return { url: listening.url, passed, drop, close: listening.close };
}
