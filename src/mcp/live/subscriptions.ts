import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { ErrorCode, McpError, SubscribeRequestSchema, UnsubscribeRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import type { Logger } from 'pino';
import { isId, isWorkspaceSlug } from '../../api/ids.js';
import { type InboxAccess, hasScope } from '../context/access.js';
import { TEMPLATE } from '../view/links.js';
import type { InboxChange, InboxWatch } from './inbox-watch.js';

/** What a subscribable URI watches: a workspace's leads, one lead, or one lead's conversation. */
interface Watched {
  workspace: string;
  lead: string | null;
}

const SUBSCRIBABLE = /^inbox:\/\/([^/]+)\/leads(?:\/([^/]+)(\/conversation)?)?$/;

/** The URI as something to watch, or a clear error naming what can be watched. */
function watchedOf(uri: string): Watched {
  const m = SUBSCRIBABLE.exec(uri);
  if (!m) {
    throw new McpError(
      ErrorCode.InvalidParams,
      `Only ${TEMPLATE.leads}, ${TEMPLATE.lead} and ${TEMPLATE.conversation} can be subscribed to; '${uri}' is none of them.`,
    );
  }
  const [, workspace, lead] = m;
  if (!isWorkspaceSlug(workspace)) throw new McpError(ErrorCode.InvalidParams, `'${workspace}' is not a workspace slug (lowercase letters, digits, hyphens).`);
  if (lead !== undefined && !isId('lead', lead))
    throw new McpError(ErrorCode.InvalidParams, `'${lead}' is not a lead id (lead_…); list_leads gives real ones.`);
  return { workspace, lead: lead ?? null };
}

/**
 * One MCP session's subscriptions (resources/subscribe and unsubscribe). The session listens
 * to the shared watch for each workspace it has a subscription in, and tells its client
 * notifications/resources/updated for each subscribed URI a change touches. Closing the
 * session ends its listening; the watch stops polling a workspace nobody listens to.
 */
export class Subscriptions {
  private readonly uris = new Map<string, Watched>();
  private readonly listening = new Map<string, Promise<() => void>>();

  constructor(
    private readonly server: Server,
    private readonly watch: InboxWatch,
    private readonly access: InboxAccess,
    private readonly log: Logger,
  ) {
    server.setRequestHandler(SubscribeRequestSchema, async (req) => {
      await this.subscribe(req.params.uri);
      return {};
    });
    server.setRequestHandler(UnsubscribeRequestSchema, async (req) => {
      await this.unsubscribe(req.params.uri);
      return {};
    });
  }

  get size(): number {
    return this.uris.size;
  }

  async subscribe(uri: string): Promise<void> {
    const w = watchedOf(uri);
    const reach = this.access.workspaces();
    if (reach.length > 0 && !reach.includes(w.workspace)) {
      throw new McpError(ErrorCode.InvalidParams, `This key does not reach the workspace '${w.workspace}'; it reaches ${reach.join(', ')}.`);
    }
    if (!hasScope(this.access, 'leads:read'))
      throw new McpError(ErrorCode.InvalidParams, 'Watching the inbox needs the scope leads:read, which this key lacks.');
    this.uris.set(uri, w);
    let stop = this.listening.get(w.workspace);
    if (!stop) {
      stop = this.watch.listen(w.workspace, (c) => this.changed(c));
      this.listening.set(w.workspace, stop);
      stop.catch(() => this.listening.delete(w.workspace));
    }
    await stop;
  }

  async unsubscribe(uri: string): Promise<void> {
    const w = this.uris.get(uri);
    if (!w) return;
    this.uris.delete(uri);
    if ([...this.uris.values()].some((x) => x.workspace === w.workspace)) return;
    const stop = this.listening.get(w.workspace);
    this.listening.delete(w.workspace);
    (await stop)?.();
  }

  /** The session ended: it listens no more. */
  async close(): Promise<void> {
    const all = [...this.listening.values()];
    this.listening.clear();
    this.uris.clear();
    for (const stop of all) (await stop.catch(() => null))?.();
  }

  private changed(c: InboxChange): void {
    const leads = new Set(c.leads);
    for (const [uri, w] of this.uris) {
      if (w.workspace !== c.workspace || (w.lead !== null && !leads.has(w.lead))) continue;
      this.server.sendResourceUpdated({ uri }).catch((err: unknown) => this.log.debug({ err, uri }, 'resources/updated not delivered'));
    }
  }
}
