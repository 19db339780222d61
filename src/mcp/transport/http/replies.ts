import type { ServerResponse } from 'node:http';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

/** A transport-level error, in JSON-RPC's shape as the SDK's own transport answers them. */
export function reply(res: ServerResponse, status: number, message: string, headers: Record<string, string> = {}, code = -32000): void {
  send(res, status, { jsonrpc: '2.0', error: { code, message }, id: null }, headers);
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
