import type { McpServer, ReadResourceResult, Resource, ServerContext, Variables } from '@modelcontextprotocol/server';
import { readError } from '../../errors.js';
import { DEFAULT_MAX_RESULT_BYTES } from '../../view/result-budget.js';
import { type InboxAccess, hasScope } from '../access.js';
import { completeLead, completeWorkspace } from '../completions.js';
import { type Answering, SharedRegistrations, sessionCompleter, sessionOf } from '../session-access.js';

/** What a read uses of the SDK's request context. */
export type Extra = { signal: AbortSignal };
export type Row = Record<string, unknown>;
export type ReadResource = (uri: URL, vars: Variables, ctx: ServerContext) => Promise<ReadResourceResult>;
/** A read of one session: the session that asked comes with the request. */
export type SessionRead = (uri: URL, vars: Variables, extra: Extra, session: Answering) => Promise<ReadResourceResult>;

export const JSON_TYPE = 'application/json';
export const MARKDOWN = 'text/markdown';

/** Leads in resources/list: one page of the newest, never a crawl of the inbox. */
export const LISTED_LEADS = 20;

/** Workspaces in resources/list when the server has no default: a key reaching more lists the first this many (each costs a page of leads). */
export const LISTED_WORKSPACES = 10;

/** The workspaces resources/list names: the default one, else each the key reaches (up to LISTED_WORKSPACES). */
export function listedWorkspaces(access: InboxAccess): string[] {
  const ws = access.defaultWorkspace();
  return ws ? [ws] : access.workspaces().slice(0, LISTED_WORKSPACES);
}

export function text(uri: URL, mimeType: string, body: string): ReadResourceResult {
  return { contents: [{ uri: uri.toString(), mimeType, text: body }] };
}

/** A URI variable as one string (our templates have no exploded variables). */
export const one = (v: Variables[string] | undefined) => (Array.isArray(v) ? v[0] : v);

/** What every resource template registers with: where it registers, what it may read, and the rules they share. */
export interface ResourceKit {
  mcp: Pick<McpServer, 'registerResource'>;
  /** Run a read with the session that asked; an API failure becomes a JSON-RPC error carrying the API's envelope. */
  guarded(what: string, read: SessionRead): ReadResource;
  /**
   * List entries for the asking session's default workspace, else for each workspace its key
   * reaches (an all-workspaces key without --workspace), and only where its key has the scope.
   */
  forWorkspaces(
    scope: string,
    entry: (ws: string, access: InboxAccess) => Resource | Promise<Resource[]>,
  ): (ctx: ServerContext) => Promise<{ resources: Resource[] }>;
  workspaceOnly: typeof WORKSPACE_ONLY;
  leadVars: typeof LEAD_VARS;
}

/** The byte budget of one read of this session. */
export const budgetOf = (access: InboxAccess): number => access.maxResultBytes?.() ?? DEFAULT_MAX_RESULT_BYTES;

/** The templates' completers, shared by every session: each finds the asking session's access. */
const WORKSPACE_ONLY = { workspace: sessionCompleter(completeWorkspace, [] as string[]) };
const LEAD_VARS = { ...WORKSPACE_ONLY, lead: sessionCompleter(completeLead, [] as string[]) };

/**
 * The resources, registered once per process: their templates (a parsed URI template each),
 * metadata and read callbacks are shared by every session; each read finds its session from
 * the request's `extra`.
 */
export function sharedResources(register: (kit: ResourceKit) => void): SharedRegistrations<'registerResource'> {
  return new SharedRegistrations('registerResource', (mcp) => register(kitOn(mcp)));
}

function kitOn(mcp: Pick<McpServer, 'registerResource'>): ResourceKit {
  return {
    mcp,
    guarded: (what, read) => async (uri, vars, ctx) => {
      const session = sessionOf(ctx);
      try {
        return await read(uri, vars, { signal: ctx.mcpReq.signal }, session);
      } catch (err) {
        session.access.failed(err, what);
        throw readError(err, what);
      }
    },
    forWorkspaces: (scope, entry) => async (extra) => {
      const { access, log } = sessionOf(extra);
      if (!hasScope(access, scope)) return { resources: [] };
      const listed = await Promise.all(
        listedWorkspaces(access).map(async (ws) => {
          try {
            const made = await entry(ws, access);
            return Array.isArray(made) ? made : [made];
          } catch (err) {
            // A listing that cannot reach the API still lists the rest.
            log.debug({ err, workspace: ws }, 'resource listing failed');
            access.failed(err, 'resources/list');
            return [];
          }
        }),
      );
      return { resources: listed.flat() };
    },
    workspaceOnly: WORKSPACE_ONLY,
    leadVars: LEAD_VARS,
  };
}
