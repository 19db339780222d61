import { startSandbox } from '../../src/sandbox/index.js';
import { answeredEndlessBody } from '../harness/endless-body.js';
import { startHttpBinary } from '../harness/http.js';
import { TEST_NOW } from '../harness/sandbox.js';

/* Item 3 of the second attack: an endless chunked body on a refused request must be cut off, not read forever. */

/** A POST's head with a chunked body to come. */
const head = (path: string, host: string, extra = '') =>
  `POST ${path} HTTP/1.1\r\nHost: ${host}\r\nContent-Type: application/json\r\n${extra}Transfer-Encoding: chunked\r\n\r\n`;

/**
 * The refused requests of the issue, each with an endless body for at most `limitMs`: the
 * status the server answered (a connection whose answer was lost to the reset is tried again,
 * up to 3 attempts), the bytes the client got written, whether the server ended the connection.
 */
export async function endlessBodyRun(limitMs = 8000) {
  const sandbox = await startSandbox({ port: 0, now: TEST_NOW, logLevel: 'silent', leads: 20 });
  const bin = await startHttpBinary(['--base-url', sandbox.baseUrl]);
  try {
    const host = new URL(bin.url).host;
    return {
      no_key: await answeredEndlessBody(bin.url, head('/mcp', host), { limitMs }),
      wrong_host: await answeredEndlessBody(bin.url, head('/mcp', 'evil.example', 'Authorization: Bearer x\r\n'), { limitMs }),
      not_found: await answeredEndlessBody(bin.url, head('/nowhere', host), { limitMs }),
      limit_ms: limitMs,
    };
  } finally {
    await bin.stop('SIGKILL');
    await sandbox.close();
  }
}
