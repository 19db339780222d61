import { ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/server';
import type { Server } from '@modelcontextprotocol/server';
import type { Logger } from 'pino';
import { isId, isWorkspaceSlug } from '../../api/ids.js';
import { type InboxAccess, hasScope } from '../resources-prompts/access.js';
import { TEMPLATE, URI } from '../view/links.js';
import type { InboxChange, InboxWatch } from './inbox-watch.js';

/** What a subscribable URI watches: a workspace's leads, one lead, or one lead's conversation. */
interface Watched {
  workspace: string;
  lead: string | null;
}

/** Subscriptions one session may hold: a person watches a handful of leads, never thousands. */
export const MAX_SUBSCRIPTIONS = 100;

const SUBSCRIBABLE = /^inbox:\/\/([^/]+)\/leads(?:\/([^/]+)(\/conversation)?)?$/;

/** The URI as something to watch, or a clear error naming what can be watched. */
function watchedOf(uri: string): Watched {
  const m = SUBSCRIBABLE.exec(uri);
  if (!m) {
    throw new ProtocolError(
      ProtocolErrorCode.InvalidParams,
      `Only ${TEMPLATE.leads}, ${TEMPLATE.lead} and ${TEMPLATE.conversation} can be subscribed to; '${uri}' is none of them.`,
    );
  }
  const [, workspace, lead] = m;
  if (!isWorkspaceSlug(workspace))
    throw new ProtocolError(ProtocolErrorCode.InvalidParams, `'${workspace}' is not a workspace slug (lowercase letters, digits, hyphens).`);
  if (lead !== undefined && !isId('lead', lead))
    throw new ProtocolError(ProtocolErrorCode.InvalidParams, `'${lead}' is not a lead id (lead_…); list_leads gives real ones.`);
  return { workspace, lead: lead ?? null };
}

/** What a subscribed URI's change is told as: notifications/resources/updated's params. */
export type SendUpdated = (params: { uri: string; _meta?: Record<string, unknown> }) => Promise<void>;

/**
 * The subscriptions of one listener: a 2025 session (resources/subscribe and unsubscribe), or
 * the 2026-07-28 listen streams of one key (subscriptions/listen). It listens to the shared
 * watch for each workspace it has a subscription in, and sends resources/updated for each
 * subscribed URI a change touches. Closing ends its listening; the watch stops polling a
 * workspace nobody listens to.
 */
export class Subscriptions {
  private readonly uris = new Map<string, Watched>();
  private readonly listening = new Map<string, Promise<() => void>>();

  constructor(
    private readonly send: SendUpdated,
    private readonly watch: InboxWatch,
    private readonly access: InboxAccess,
    private readonly log: Logger,
    /** How many URIs it may hold. */
    private readonly max = MAX_SUBSCRIPTIONS,
  ) {}

  /** A 2025 session's subscriptions: resources/subscribe and unsubscribe answered on its server. */
  static ofSession(server: Server, watch: InboxWatch, access: InboxAccess, log: Logger): Subscriptions {
    const subs = new Subscriptions((p) => server.sendResourceUpdated(p), watch, access, log);
    server.setRequestHandler('resources/subscribe', async (req) => {
      await subs.subscribe(req.params.uri);
      return {};
    });
    server.setRequestHandler('resources/unsubscribe', async (req) => {
      await subs.unsubscribe(req.params.uri);
      return {};
    });
    return subs;
  }

  get size(): number {
    return this.uris.size;
  }

  async subscribe(uri: string): Promise<void> {
    const w = watchedOf(uri);
    const reach = this.access.workspaces();
    if (reach.length > 0 && !reach.includes(w.workspace)) {
      throw new ProtocolError(ProtocolErrorCode.InvalidParams, `This key does not reach the workspace '${w.workspace}'; it reaches ${reach.join(', ')}.`);
    }
    if (!hasScope(this.access, 'leads:read'))
      throw new ProtocolError(ProtocolErrorCode.InvalidParams, 'Watching the inbox needs the scope leads:read, which this key lacks.');
    if (this.uris.has(uri)) return;
    if (this.uris.size >= this.max)
      throw new ProtocolError(
        ProtocolErrorCode.InvalidParams,
        `This session holds ${this.max} subscriptions, the most one session may; unsubscribe from one first, or subscribe to ${URI.leads(w.workspace)} to hear every lead of the workspace.`,
      );
    // Held before any wait, so concurrent subscriptions count against the cap and keep the workspace heard.
    this.uris.set(uri, w);
    try {
      // Listening first: the watch's baseline read makes the newest leads known without a check each.
      await this.listenTo(w.workspace);
      if (w.lead !== null) await this.mustExist(w.workspace, w.lead);
    } catch (err) {
      this.uris.delete(uri);
      await this.release(w.workspace);
      throw err;
    }
  }

  private async listenTo(workspace: string): Promise<void> {
    let stop = this.listening.get(workspace);
    if (!stop) {
      stop = this.watch.listen(workspace, (c) => this.changed(c));
      this.listening.set(workspace, stop);
      stop.catch(() => this.listening.delete(workspace));
    }
    await stop;
  }

  /** Stop listening to a workspace none of this session's subscriptions is in. */
  private async release(workspace: string): Promise<void> {
    if ([...this.uris.values()].some((x) => x.workspace === workspace)) return;
    const stop = this.listening.get(workspace);
    this.listening.delete(workspace);
    (await stop)?.();
  }

  /** A lead subscription names a real lead: known to the watch, or one get_lead read. */
  private async mustExist(workspace: string, lead: string): Promise<void> {
    let found: boolean;
    try {
      found = await this.watch.leads.exists(workspace, lead);
    } catch (err) {
      this.log.debug({ err, workspace }, 'subscribe: the lead could not be checked');
      throw new ProtocolError(
        ProtocolErrorCode.InternalError,
        `Could not check that lead ${lead} exists in '${workspace}' (the API did not answer); try subscribing again shortly.`,
      );
    }
    if (!found)
      throw new ProtocolError(ProtocolErrorCode.InvalidParams, `There is no lead ${lead} in the workspace '${workspace}'; list_leads gives real ones.`);
  }

  async unsubscribe(uri: string): Promise<void> {
    const w = this.uris.get(uri);
    if (!w) return;
    this.uris.delete(uri);
    await this.release(w.workspace);
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
      // A workspace's leads: the notification names the leads and the URI that reads only them.
      const what = w.lead === null && c.since ? { _meta: { changed_leads: c.leads, changes: URI.leadsSince(c.workspace, c.since) } } : {};
      this.send({ uri, ...what }).catch((err: unknown) => this.log.debug({ err, uri }, 'resources/updated not delivered'));
    }
  }
}
