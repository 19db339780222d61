import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { isId, isWorkspaceSlug } from '../../spec/index.js';
import type { ApiCaller } from '../runtime/tool-context.js';
import { errorBody } from '../errors.js';

/** What resources, prompts and completions need of the server: the client and what GET /v1/me said. */
export interface InboxAccess {
  api: ApiCaller;
  /** Workspace slugs the key reaches. */
  workspaces(): readonly string[];
  /** --workspace, else the only workspace the key reaches. */
  defaultWorkspace(): string | undefined;
  /** The key's usable scopes; null when unknown (then nothing is withheld). */
  scopes(): ReadonlySet<string> | null;
  /** The byte budget of one resource read (--max-result-bytes). */
  maxResultBytes?(): number;
  /** A read failed: tell the client's log when it is notable, follow a scope change. */
  failed(err: unknown, what: string): void;
}

/** MCP's code for a resource that does not exist (spec: resources, error handling). */
export const RESOURCE_NOT_FOUND = -32002;

/** Codes of a bad request from the client's side: the arguments or the URI need fixing. */
const CLIENT_SIDE = new Set(['invalid_request', 'invalid_id', 'invalid_cursor', 'unsupported_filter', 'insufficient_scope', 'workspace_forbidden']);

/** An API failure as a JSON-RPC error: the API's envelope and the next step ride in data. */
export function readError(err: unknown, what: string): McpError {
  if (err instanceof McpError) return err;
  const body = errorBody(err, what);
  const code = body.error.code === 'not_found' ? RESOURCE_NOT_FOUND : CLIENT_SIDE.has(body.error.code) ? ErrorCode.InvalidParams : ErrorCode.InternalError;
  return new McpError(code, `${body.error.code}: ${body.error.message} ${body.next_step}`, body);
}

export function hasScope(access: InboxAccess, scope: string): boolean {
  const s = access.scopes();
  return s === null || s.has(scope);
}

/** The workspace a prompt or resource names, else the server's default, else a clear error. */
export function workspaceOr(access: InboxAccess, given: unknown): string {
  const ws = typeof given === 'string' && given !== '' ? given : access.defaultWorkspace();
  if (ws === undefined) {
    throw new McpError(ErrorCode.InvalidParams, `Pass a workspace: this key reaches ${access.workspaces().join(', ') || 'no workspace'} and the server has no default (--workspace).`);
  }
  if (!isWorkspaceSlug(ws)) throw new McpError(ErrorCode.InvalidParams, `'${ws}' is not a workspace slug (lowercase letters, digits, hyphens).`);
  return ws;
}

/** A lead id from a URI or argument, checked before any request. */
export function leadIdOf(given: unknown): string {
  if (!isId('lead', given)) throw new McpError(ErrorCode.InvalidParams, `'${String(given)}' is not a lead id (lead_…); list_leads gives real ones.`);
  return given;
}
