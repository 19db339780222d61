import type { ServerResponse } from 'node:http';
import type { JSONRPCMessage } from '@modelcontextprotocol/server';

/** A transport-level error, in JSON-RPC's shape as the SDK's own transport answers them. */
export function reply(res: ServerResponse, status: number, message: string, headers: Record<string, string> = {}, code = -32000): void {
  send(res, status, { jsonrpc: '2.0', error: { code, message }, id: null }, headers);
}

/** The limits a request can be refused by, named as the flag that sets each. */
export type Limit = 'max-sessions-per-key' | 'max-sessions' | 'auth-failures-per-minute';

/** A refusal by one of the limits: the flag in `error.data.limit`, and Retry-After in seconds. */
export function refuse(res: ServerResponse, status: 429 | 503, limit: Limit, retryAfterS: number, message: string): void {
  send(
    res,
    status,
    { jsonrpc: '2.0', error: { code: -32000, message, data: { limit, retry_after_s: retryAfterS } }, id: null },
    { 'retry-after': String(retryAfterS) },
  );
}

export function send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  if (res.headersSent) {
    res.end();
    return;
  }
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}

/** The answer of the JSON-RPC guard: an error about a request with an id is that request's answer; one with no id is a bad request. */
export function guardReply(res: ServerResponse, r: JSONRPCMessage | null): void {
  if (!r) {
    res.writeHead(202).end();
    return;
  }
  send(res, (r as { id: unknown }).id === null ? 400 : 200, r);
}
