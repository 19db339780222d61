import { type JSONRPCMessage, PROTOCOL_VERSION_META_KEY } from '@modelcontextprotocol/server';
import {
  CallToolRequestSchema,
  CompleteRequestSchema,
  GetPromptRequestSchema,
  InitializeRequestSchema,
  JSONRPCMessageSchema,
  ListPromptsRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListResourcesRequestSchema,
  ListToolsRequestSchema,
  PingRequestSchema,
  ReadResourceRequestSchema,
  SetLevelRequestSchema,
} from '@modelcontextprotocol/core';
import { ValidationError } from '../../client/errors.js';
import { errorResult } from '../errors.js';
import { nestsDeeperThan } from '../../json-depth.js';

/**
 * JSON-RPC 2.0 on the way in: a message that cannot be handled gets the error the spec
 * names (-32700 parse error, -32600 invalid request, -32602 invalid params) instead of
 * silence or an internal error; a notification is never answered.
 */
export type Vetted = { message: JSONRPCMessage } | { reply: JSONRPCMessage | null };

const KNOWN_REQUESTS: Record<string, { safeParse(v: unknown): { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } } }> = {
  initialize: InitializeRequestSchema,
  ping: PingRequestSchema,
  'tools/list': ListToolsRequestSchema,
  'tools/call': CallToolRequestSchema,
  'resources/list': ListResourcesRequestSchema,
  'resources/templates/list': ListResourceTemplatesRequestSchema,
  'resources/read': ReadResourceRequestSchema,
  'prompts/list': ListPromptsRequestSchema,
  'prompts/get': GetPromptRequestSchema,
  'completion/complete': CompleteRequestSchema,
  'logging/setLevel': SetLevelRequestSchema,
};

/**
 * Requests revision 2026-07-28 removed: sent with a 2026-07-28 `_meta` envelope they are no
 * method at all, so their 2025 params are not checked here and the SDK answers -32601 (over
 * HTTP with 404), as the revision asks.
 */
const REMOVED_IN_2026 = new Set(['initialize', 'ping', 'logging/setLevel']);

function claims2026(params: unknown): boolean {
  const meta = (params as { _meta?: unknown } | undefined)?._meta;
  return typeof meta === 'object' && meta !== null && PROTOCOL_VERSION_META_KEY in meta;
}

const isId = (v: unknown): v is string | number => typeof v === 'string' || (typeof v === 'number' && Number.isFinite(v));

function error(id: string | number | null, code: number, message: string): { reply: JSONRPCMessage } {
  return { reply: { jsonrpc: '2.0', id, error: { code, message } } as unknown as JSONRPCMessage };
}

/**
 * Where the value holds `__proto__` as a key of its own (JSON.parse makes one; a later copy
 * would turn it into a prototype or drop it in silence), as a dotted path; null when nowhere.
 */
export function protoKeyPath(v: unknown, path = ''): string | null {
  if (v === null || typeof v !== 'object') return null;
  if (Object.hasOwn(v, '__proto__')) return `${path}__proto__`;
  for (const [k, x] of Object.entries(v)) {
    const found = protoKeyPath(x, `${path}${k}.`);
    if (found !== null) return found;
  }
  return null;
}

/** A request carrying a `__proto__` key: a tool call is refused as a tool error naming the key, as any unknown argument is; another request, -32602. */
function protoRefusal(m: Record<string, unknown>, id: string | number | null, isRequest: boolean): Vetted | null {
  const where = protoKeyPath(m.params);
  if (where === null) return null;
  if (!isRequest) return { reply: null };
  const params = m.params as Record<string, unknown>;
  if (m.method === 'tools/call' && typeof params.name === 'string' && where.startsWith('arguments.')) {
    const arg = where.slice('arguments.'.length);
    const refused = new ValidationError('invalid_request', params.name, `Unknown argument '${arg}': a key named __proto__ is refused.`, '__proto__');
    return { reply: { jsonrpc: '2.0', id, result: errorResult(refused, params.name) } as unknown as JSONRPCMessage };
  }
  return error(id, -32602, `Invalid params for ${String(m.method)}: ${where}: a key named __proto__ is refused.`);
}

export function vetMessage(value: unknown): Vetted {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    return error(null, -32600, 'Invalid Request: a message is one JSON object (batches are not supported).');
  }
  const m = value as Record<string, unknown>;
  const id = isId(m.id) ? m.id : null;
  const isRequest = 'id' in m && 'method' in m;
  const isNotification = !('id' in m) && 'method' in m;
  if (m.jsonrpc !== '2.0') return isNotification ? { reply: null } : error(id, -32600, 'Invalid Request: "jsonrpc" must be "2.0".');
  if ('method' in m) {
    if (typeof m.method !== 'string') return isNotification ? { reply: null } : error(id, -32600, 'Invalid Request: "method" must be a string.');
    if (isRequest && !isId(m.id)) return error(null, -32600, 'Invalid Request: "id" must be a string or a number.');
    if ('params' in m && (m.params === null || typeof m.params !== 'object' || Array.isArray(m.params))) {
      return isNotification ? { reply: null } : error(id, -32602, 'Invalid params: "params" must be an object.');
    }
    const proto = protoRefusal(m, id, isRequest);
    if (proto) return proto;
    const removed = REMOVED_IN_2026.has(m.method) && claims2026(m.params);
    const schema = isRequest && !removed ? KNOWN_REQUESTS[m.method] : undefined;
    if (schema) {
      const r = schema.safeParse(m);
      if (!r.success) {
        const issue = r.error!.issues[0]!;
        return error(id, -32602, `Invalid params for ${m.method}: ${issue.path.map(String).join('.') || 'params'}: ${issue.message}.`);
      }
    }
  } else if (!('result' in m) && !('error' in m)) {
    return 'id' in m ? error(id, -32600, 'Invalid Request: a request needs "method".') : { reply: null };
  }
  const parsed = JSONRPCMessageSchema.safeParse(m);
  if (!parsed.success) return isNotification || !('id' in m) ? { reply: null } : error(id, -32600, 'Invalid Request: not a JSON-RPC 2.0 message.');
  return { message: parsed.data };
}

/** Deeper than this is no MCP message, and JSON this deep overflows the stack of recursive code (a schema check, a log line). */
export const MAX_DEPTH = 100;

/** One message as text: a line of stdio or the body of an HTTP POST. */
export function vetLine(line: string): Vetted {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch (e) {
    return e instanceof SyntaxError ? error(null, -32700, 'Parse error: the message is not JSON.') : tooDeep(undefined);
  }
  if (nestsDeeperThan(line, MAX_DEPTH)) return tooDeep(value);
  try {
    return vetMessage(value);
  } catch {
    // Whatever a check throws on, the message is refused and the server keeps serving.
    return error(null, -32600, 'Invalid Request: not a JSON-RPC 2.0 message.');
  }
}

/** Refused unread: a request is told so for its id; a response or a notification is never answered. */
function tooDeep(value: unknown): Vetted {
  const m = value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
  if (m && (!('method' in m) || !('id' in m))) return { reply: null };
  return error(m && isId(m.id) ? m.id : null, -32600, `Invalid Request: the message nests deeper than ${MAX_DEPTH} levels.`);
}
