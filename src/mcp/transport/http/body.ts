import type { IncomingMessage } from 'node:http';

/** JSON-RPC messages of MCP are small; a larger body is a mistake or an attack. */
export const DEFAULT_MAX_BODY_BYTES = 1024 * 1024;

export type BodyResult = { ok: true; text: string } | { ok: false; status: 400 | 413; code: number; message: string };

/**
 * Read a body of at most `maxBytes`. A declared length over it is refused before any byte is
 * read, and a streamed (chunked) body is refused the moment it passes the limit: reading
 * stops there, and the caller answers 413 and closes the connection instead of taking the rest.
 */
export function readBody(req: IncomingMessage, maxBytes: number): Promise<BodyResult> {
  const tooLarge: BodyResult = { ok: false, status: 413, code: -32600, message: `Request body over the limit of ${maxBytes} bytes.` };
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > maxBytes) return Promise.resolve(tooLarge);
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size <= maxBytes) return void chunks.push(chunk);
      req.off('data', onData);
      req.pause();
      chunks.length = 0;
      resolve(tooLarge);
    };
    req.on('data', onData);
    req.on('error', () => resolve({ ok: false, status: 400, code: -32600, message: 'The request body could not be read.' }));
    req.on('end', () => resolve({ ok: true, text: Buffer.concat(chunks).toString('utf8') }));
  });
}
