import { type IncomingMessage, type ServerResponse, createServer, request } from 'node:http';
import { listenLoopback } from './listen.js';

/**
 * What the gateway does with the API's answer: pass it on, replace it with a status (an HTML
 * page), or with a status and a body of `bytes` spaces, declared (a huge 201, say), or cut the connection.
 */
export type GatewayFault = number | { status: number; bytes: number } | 'cut' | null;

export interface Gateway {
  url: string;
  /** Requests that reached the gateway, as "METHOD /path?query". */
  readonly requests: string[];
  /** Answers the gateway replaced after the API had answered (the write was applied). */
  readonly replaced: { request: string; upstreamStatus: number; fault: Exclude<GatewayFault, null> }[];
  /** Decides per request; default passes everything on. */
  fault: (method: string, url: string) => GatewayFault;
  /** Answers a request itself instead of passing it on when it returns true (a huge or endless body, say). */
  answer: (req: IncomingMessage, res: ServerResponse) => boolean;
  /** Holds the API's answer back, the request applied, until the promise settles (a slow API); null holds nothing. */
  hold: (method: string, url: string) => Promise<void> | null;
  close(): Promise<void>;
}

/**
 * A gateway in front of an API that lets the API apply a request, then loses its answer:
 * it answers a 5xx of its own (a gateway's HTML page, as load balancers send) or cuts
 * the connection, the way a real proxy fails after the backend did the work.
 */
export async function startGateway(target: string): Promise<Gateway> {
  const upstream = new URL(target);
  const gw: Gateway = { url: '', requests: [], replaced: [], fault: () => null, answer: () => false, hold: () => null, close: async () => undefined };
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const line = `${req.method} ${req.url}`;
    gw.requests.push(line);
    if (gw.answer(req, res)) return;
    const fault = gw.fault(req.method ?? '', req.url ?? '');
    const held = gw.hold(req.method ?? '', req.url ?? '');
    const out = request({ host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: req.headers }, (up) => {
      if (held) void held.then(() => pass(up));
      else pass(up);
    });
    const pass = (up: IncomingMessage) => {
      if (fault === null) {
        res.writeHead(up.statusCode ?? 502, up.headers);
        up.pipe(res);
        return;
      }
      // The API has answered, so the write is applied; read its answer to the end, then lose it.
      up.resume();
      up.on('end', () => {
        gw.replaced.push({ request: line, upstreamStatus: up.statusCode ?? 0, fault });
        if (fault === 'cut') {
          res.socket?.destroy();
          return;
        }
        if (typeof fault === 'object') {
          // The client may hang up once it has read the declared length.
          res.on('error', () => undefined);
          res.writeHead(fault.status, { 'content-type': 'application/json', 'content-length': String(fault.bytes), connection: 'close' });
          res.end(Buffer.alloc(fault.bytes, ' '));
          return;
        }
        res.writeHead(fault, { 'content-type': 'text/html', connection: 'close' });
        res.end(`<html><body><h1>${fault} gateway error</h1></body></html>`);
      });
    };
    out.on('error', () => res.destroy());
    req.pipe(out);
  });
  const listening = await listenLoopback(server);
  gw.url = listening.url;
  gw.close = listening.close;
  return gw;
}

/**
 * Stream `total` bytes of `fill` as the response body, honouring backpressure, until done
 * or the client hangs up. Resolves with the bytes the client accepted (kernel buffers
 * included), which tells whether it stopped reading early.
 */
export async function streamBody(res: ServerResponse, total: number, head: Record<string, string>, fill = 'x'): Promise<number> {
  res.writeHead(200, head);
  const chunk = Buffer.alloc(64 * 1024, fill);
  let sent = 0;
  let closed = false;
  res.on('close', () => {
    closed = true;
  });
  while (sent < total && !closed) {
    const piece = total - sent >= chunk.length ? chunk : chunk.subarray(0, total - sent);
    sent += piece.length;
    if (!res.write(piece))
      await new Promise<void>((resolve) => {
        const done = () => {
          res.off('drain', done);
          res.off('close', done);
          resolve();
        };
        res.on('drain', done);
        res.on('close', done);
      });
  }
  if (!closed) res.end();
  return sent;
}
