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
    const out = request({ host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: req.headers }, (up) => {
      entry.status = up.statusCode ?? null;
      res.writeHead(up.statusCode ?? 502, up.headers);
      up.pipe(res);
    });
    out.on('error', () => res.destroy());
    req.pipe(out);
  });
  const listening = await listenLoopback(server);
  relay.url = listening.url;
  relay.close = listening.close;
  return relay;
}
