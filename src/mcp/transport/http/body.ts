import type { IncomingMessage } from 'node:http';

/** JSON-RPC messages of MCP are small; a larger body is a mistake or an attack. */
export const DEFAULT_MAX_BODY_BYTES = 1024 * 1024;

export type BodyResult = { ok: true; value: unknown } | { ok: false; status: 400 | 413; code: number; message: string };

/**
 * Read a JSON body of at most `maxBytes`. A declared length over it is refused before any
 * byte is kept; a body streamed past it stops being kept at once and the rest is discarded
 * (so the client still reads the 413 instead of a reset connection).
 */
export function readJsonBody(req: IncomingMessage, maxBytes: number): Promise<BodyResult> {
  const tooLarge: BodyResult = { ok: false, status: 413, code: -32600, message: `Request body over the limit of ${maxBytes} bytes.` };
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > maxBytes) {
    req.resume();
    return Promise.resolve(tooLarge);
  }
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= maxBytes) chunks.push(chunk);
      else chunks.length = 0;
    });
    req.on('error', () => resolve({ ok: false, status: 400, code: -32600, message: 'The request body could not be read.' }));
    req.on('end', () => {
      if (size > maxBytes) return resolve(tooLarge);
      try {
        resolve({ ok: true, value: JSON.parse(Buffer.concat(chunks).toString('utf8')) });
      } catch {
        resolve({ ok: false, status: 400, code: -32700, message: 'Parse error: the body is not JSON.' });
      }
    });
  });
}
