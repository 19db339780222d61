import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { type IncomingMessage, type ServerResponse, createServer, request } from 'node:http';
import { HOST_DIR } from '../build-desk.js';
import { type HttpBinary, startHttpBinary } from '../harness/http.js';
import { listenLoopback } from '../harness/listen.js';

/**
 * The local desk: the host page on one loopback origin, the sandbox proxy on another, and the
 * MCP server (the built binary over Streamable HTTP) behind the page's /mcp. The relay adds the
 * server's bearer token, so the browser never holds a secret.
 */
export interface Desk {
  /** The host page a person opens. */
  url: string;
  /** The origin of the sandbox proxy page. */
  sandboxOrigin: string;
  mcp: HttpBinary;
  close(): Promise<void>;
}

/** The sandbox proxy and the app it frames may run inline code and load nothing at all. */
const SANDBOX_CSP =
  "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:; frame-src 'self'; base-uri 'none'; form-action 'none'";

function send(res: ServerResponse, status: number, type: string, body: string, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': type, 'cache-control': 'no-store', ...headers });
  res.end(body);
}

/** Pass one request to the MCP endpoint, streaming the answer (SSE included) back as it comes. */
function relay(req: IncomingMessage, res: ServerResponse, target: URL, token: string): void {
  const headers = { ...req.headers, host: target.host, authorization: `Bearer ${token}` };
  const up = request(target, { method: req.method, headers }, (answer) => {
    res.writeHead(answer.statusCode ?? 502, answer.headers);
    answer.pipe(res);
  });
  up.on('error', () => (res.headersSent ? res.destroy() : send(res, 502, 'text/plain', 'the MCP server did not answer')));
  req.pipe(up);
}

/** `serverArgs`: how the binary reaches the API (--sandbox, or --base-url and a key); --http is added here. */
export async function startDesk(serverArgs: string[], env: Record<string, string> = {}): Promise<Desk> {
  const token = randomBytes(24).toString('hex');
  const mcp = await startHttpBinary(serverArgs, { ...env, REPLY_INBOX_HTTP_TOKEN: token });
  const target = new URL(mcp.url);
  const sandboxPage = readFileSync(`${HOST_DIR}/sandbox.html`, 'utf8');
  const sandbox = await listenLoopback(
    createServer((req, res) => {
      if (req.method === 'GET' && req.url?.startsWith('/sandbox.html'))
        return send(res, 200, 'text/html; charset=utf-8', sandboxPage, { 'content-security-policy': SANDBOX_CSP });
      send(res, 404, 'text/plain', 'not found');
    }),
  );
  const hostPage = readFileSync(`${HOST_DIR}/host.html`, 'utf8').replace(
    '<!--HOST_CONFIG-->',
    () => `<script>window.__DESK__ = ${JSON.stringify({ sandbox: `${sandbox.url}/sandbox.html` })};</script>`,
  );
  const host = await listenLoopback(
    createServer((req, res) => {
      const path = (req.url ?? '/').split('?')[0];
      if (path === '/mcp') return relay(req, res, target, token);
      if (req.method === 'GET' && (path === '/' || path === '/index.html')) return send(res, 200, 'text/html; charset=utf-8', hostPage);
      if (path === '/favicon.ico') return send(res, 204, 'image/x-icon', '');
      send(res, 404, 'text/plain', 'not found');
    }),
  );
  return {
    url: `${host.url}/`,
    sandboxOrigin: sandbox.url,
    mcp,
    close: async () => {
      await Promise.all([host.close(), sandbox.close()]);
      await mcp.stop();
    },
  };
}
