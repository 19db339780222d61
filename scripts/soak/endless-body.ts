import { request } from 'node:http';
import { startSandbox } from '../../src/sandbox/index.js';
import { startHttpBinary } from '../harness/http.js';
import { TEST_NOW } from '../harness/sandbox.js';

/* Item 3 of the second attack: an endless chunked body on a refused request must be cut off, not read forever. */

const CHUNK = Buffer.alloc(64 * 1024, 0x61);

/** Write chunks until the server closes or `limitMs` passes; the bytes the client got written and whether the server closed. */
function endless(url: string, path: string, headers: Record<string, string>, limitMs: number) {
  const u = new URL(url);
  return new Promise<{ status: number | null; bytes_written: number; closed_by_server: boolean; ms: number }>((resolve) => {
    const started = Date.now();
    let bytes = 0;
    let status: number | null = null;
    let done = false;
    const req = request({
      host: u.hostname,
      port: u.port,
      path,
      method: 'POST',
      headers: { 'content-type': 'application/json', 'transfer-encoding': 'chunked', ...headers },
    });
    const finish = (closed: boolean) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      req.destroy();
      resolve({ status, bytes_written: bytes, closed_by_server: closed, ms: Date.now() - started });
    };
    const timer = setTimeout(() => finish(false), limitMs);
    req.on('response', (res) => {
      status = res.statusCode ?? null;
      res.resume();
    });
    req.on('error', () => finish(true));
    req.on('close', () => finish(true));
    const pump = () => {
      while (!done && req.write(CHUNK)) bytes += CHUNK.length;
      if (!done) {
        bytes += CHUNK.length;
        req.once('drain', pump);
      }
    };
    pump();
  });
}

/** The refused requests of the issue, each with an endless body for at most `limitMs`. */
export async function endlessBodyRun(limitMs = 8000) {
  const sandbox = await startSandbox({ port: 0, now: TEST_NOW, logLevel: 'silent', leads: 20 });
  const bin = await startHttpBinary(['--base-url', sandbox.baseUrl]);
  try {
    const host = new URL(bin.url).host;
    return {
      no_key: await endless(bin.url, '/mcp', {}, limitMs),
      wrong_host: await endless(bin.url, '/mcp', { host: 'evil.example', authorization: 'Bearer x' }, limitMs),
      not_found: await endless(bin.url, '/nowhere', { host }, limitMs),
      limit_ms: limitMs,
    };
  } finally {
    await bin.stop('SIGKILL');
    await sandbox.close();
  }
}
