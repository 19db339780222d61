import { CLIENT_CAPABILITIES_META_KEY } from '@modelcontextprotocol/server';
import type { ClientCapabilities, Server, ServerContext, Tool } from '@modelcontextprotocol/server';
import { APP_MIME, UI_EXTENSION } from './constants.js';

/**
 * Whether the client renders MCP Apps: it lists the extension in capabilities.extensions and,
 * when it names MIME types there, ours among them. Anything else sees no app at all.
 */
export function rendersApps(caps: ClientCapabilities | undefined): boolean {
  const ext = (caps as { extensions?: Record<string, unknown> } | undefined)?.extensions?.[UI_EXTENSION];
  if (!ext || typeof ext !== 'object') return false;
  const mimeTypes = (ext as { mimeTypes?: unknown }).mimeTypes;
  return !Array.isArray(mimeTypes) || mimeTypes.includes(APP_MIME);
}

/**
 * A listed tool with its desk: `_meta.ui.resourceUri`, and the flat `ui/resourceUri` key that hosts
 * written for the extension's first drafts read. `_meta` is for the host; a model never sees it.
 */
export function withDesk<T extends Tool>(tool: T, resourceUri: string | undefined): T {
  if (!resourceUri) return tool;
  return { ...tool, _meta: { ...tool._meta, ui: { resourceUri }, 'ui/resourceUri': resourceUri } };
}

/**
 * What the client of this request can do: said once at initialize in the 2025 revisions, and on
 * every request (its `_meta` envelope) in 2026-07-28.
 */
export function clientCapabilities(server: Server, ctx: ServerContext): ClientCapabilities | undefined {
  const envelope = ctx.mcpReq.envelope as Record<string, unknown> | undefined;
  return (envelope?.[CLIENT_CAPABILITIES_META_KEY] as ClientCapabilities | undefined) ?? server.getClientCapabilities();
}
