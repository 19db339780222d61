import { ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/server';
import { isId, isWorkspaceSlug } from '../../api/ids.js';
import type { ApiCaller } from '../declare/tool-context.js';

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

export function hasScope(access: InboxAccess, scope: string): boolean {
  const s = access.scopes();
  return s === null || s.has(scope);
}

/** The workspace a prompt or resource names, else the server's default, else a clear error. */
export function workspaceOr(access: InboxAccess, given: unknown): string {
  const ws = typeof given === 'string' && given !== '' ? given : access.defaultWorkspace();
  if (ws === undefined) {
    throw new ProtocolError(
      ProtocolErrorCode.InvalidParams,
      `Pass a workspace: this key reaches ${access.workspaces().join(', ') || 'no workspace'} and the server has no default (--workspace).`,
    );
  }
  if (!isWorkspaceSlug(ws)) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `'${ws}' is not a workspace slug (lowercase letters, digits, hyphens).`);
  return ws;
}

/** A lead id from a URI or argument, checked before any request. */
export function leadIdOf(given: unknown): string {
  if (!isId('lead', given))
    throw new ProtocolError(ProtocolErrorCode.InvalidParams, `'${String(given)}' is not a lead id (lead_…); list_leads gives real ones.`);
  return given;
}
