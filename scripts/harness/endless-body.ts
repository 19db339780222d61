import { connect } from 'node:net';

/** What came of one endless body. */
export interface EndlessBodyResult {
  /** The answer's status line as the server sent it; '' when none reached the client. */
  status_line: string;
  /** Its status code; null when no answer reached the client. */
  status: number | null;
  /** Body bytes the client got written before the connection ended (or the limit). */
  bytes_written: number;
  /** The server ended the connection (not the client at its limit). */
  closed_by_server: boolean;
  ms: number;
}

/** One 64 KiB chunk of a chunked body, framed. */
const CHUNK = Buffer.concat([Buffer.from('10000\r\n'), Buffer.alloc(0x10000, 0x61), Buffer.from('\r\n')]);

/**
 * Over a raw socket, send a request's `head` (ending in a blank line, with Transfer-Encoding:
 * chunked), then 64 KiB chunks until the server ends the connection, `capBytes` are written
 * or `limitMs` passes. The answer's status line is read as it arrives while the body is still
 * being written: a server that answers and closes is seen answering, where an HTTP client
 * fails on its closed write before it reads the answer. Rarely (about 1 connection in 100
 * against the built server) the answer is still lost: it and the server's reset arrive between
 * the client's last read and its next write, and Node ends the socket on the failed write.
 */
export function endlessBody(url: string, head: string, o: { capBytes?: number; limitMs?: number } = {}): Promise<EndlessBodyResult> {
  const u = new URL(url);
  const cap = o.capBytes ?? Number.POSITIVE_INFINITY;
  return new Promise((resolve) => {
    const started = Date.now();
    const socket = connect(Number(u.port), u.hostname);
    let received = '';
    let written = 0;
    let done = false;
    const finish = (closed: boolean) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      socket.destroy();
      const line = received.includes('\r\n') ? received.slice(0, received.indexOf('\r\n')) : '';
      const code = /^HTTP\/1\.[01] (\d{3})/.exec(line)?.[1];
      resolve({ status_line: line, status: code ? Number(code) : null, bytes_written: written, closed_by_server: closed, ms: Date.now() - started });
    };
    const timer = o.limitMs === undefined ? undefined : setTimeout(() => finish(false), o.limitMs);
    socket.on('data', (d: Buffer) => {
      // The head is all that is kept: enough to hold the status line.
      if (received.length < 4096) received += d.toString('latin1');
    });
    socket.on('close', () => finish(true));
    // A write the server reset fails; 'close' follows.
    socket.on('error', () => undefined);
    // A write after the server's reset fails and ends the socket at once, losing an answer not
    // read yet: the body starts once the socket reads (after 'connect'), and each chunk is
    // written on its own turn of the event loop, after the poll that reads what came.
    const pump = () => {
      if (done) return;
      if (written >= cap) return finish(false);
      written += CHUNK.length;
      if (socket.write(CHUNK)) setImmediate(pump);
      else socket.once('drain', pump);
    };
    socket.once('connect', () => {
      socket.write(head);
      setImmediate(pump);
    });
  });
}

/**
 * endlessBody again while the server closed the connection without its answer reaching the
 * client, at most `attempts` times: the result of the last attempt, with how many it took. A
 * connection the server did not close is never tried again.
 */
export async function answeredEndlessBody(url: string, head: string, o: { capBytes?: number; limitMs?: number } = {}, attempts = 3) {
  for (let attempt = 1; ; attempt++) {
    const r = await endlessBody(url, head, o);
    if (r.status !== null || !r.closed_by_server || attempt >= attempts) return { ...r, attempts: attempt };
  }
}
