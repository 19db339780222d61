import { McpServer } from '@modelcontextprotocol/server';
import type { EndpointName } from '../api/endpoints.js';
import { type CallDeps, callTool } from './pipeline/call-tool.js';
import { SERVER_INSTRUCTIONS } from './instructions.js';
import type { Logger } from 'pino';
import type { LimiterEvent } from '../client/index.js';
import { DEFAULT_TIMEOUTS } from '../client/http.js';
import type { InboxAccess } from './resources-prompts/access.js';
import type { ApiClient } from './declare/tool-context.js';
import { errorBody, isUpstreamFailure } from './errors.js';
import { type ServerApi, serverApi } from './pipeline/api-chain.js';
import { ClientLog, type RequestLog } from './client-log.js';
import { registerPrompts } from './resources-prompts/prompts.js';
import { bindSessionAccess } from './resources-prompts/session-access.js';
import { type Hidden, type Selection, selectTools } from './declare/registry.js';
import { registerResources } from './resources-prompts/resources/register.js';
import { publishedTool } from './declare/publish.js';
import { type KeyWrites, keyWrites } from './writes/key-writes.js';
import { MemoryRecords } from './writes/records.js';
import { UserIds } from './pipeline/user-ids.js';
import { ScopeWatch } from './scope-watch.js';
import { DEFAULT_MAX_RESULT_BYTES } from './view/result-budget.js';
import type { ToolDef } from './declare/define.js';
import type { ConfirmMode } from './confirm/confirm.js';
import type { InboxWatch } from './live/inbox-watch.js';
import { MAX_SUBSCRIPTIONS, Subscriptions } from './live/subscriptions.js';
import { KeyListens, type ListenRefusal, openListen } from './live/key-listens.js';
import { registerDesk } from './desk/resource.js';
import { clientCapabilities, rendersApps, withDesk } from './desk/negotiate.js';
import type { RegisteredResource, ServerContext } from '@modelcontextprotocol/server';
import { ANSWER_VALIDATOR } from './confirm/answers.js';
import { type KeyConfirm, keyConfirm, processConfirmKey } from './confirm/state.js';
import { cacheHints } from './cache-hints.js';

export interface InboxServerOptions {
  name: string;
  version: string;
  tools: readonly ToolDef[];
  /** The key's client: its calls by a row's name, and GET /v1/me (a ReplyInboxClient, or a test's stand-in). */
  api: ApiClient & { me(opts?: { signal?: AbortSignal; cache?: 'use' | 'refresh' }): Promise<{ data: MeLike }> };
  selection: Omit<Selection, 'scopes'>;
  /** --workspace, else the only workspace the key reaches. */
  defaultWorkspace?: string;
  log: Logger;
  /** The clock of the duplicate guard (tests move it); default Date.now. */
  now?: () => number;
  /** Seconds between re-reads of GET /v1/me while a client is connected (default 300; 0: never). */
  scopeRefreshSeconds?: number;
  /** The byte budget of one tool result or resource read, in each form (default 24,576). */
  maxResultBytes?: number;
  /** One deadline for a whole tool call, its API calls and a confirmation included (default the client's 50 s). */
  toolDeadlineMs?: number;
  /** The key's confirmation states (2026-07-28 requests); default: a key of this process's own. */
  confirmState?: KeyConfirm;
  /** Which writes ask the person first when the client supports elicitation (default destructive). */
  confirm?: ConfirmMode;
  /** The poller shared by every session of this key: with it, leads and conversations can be subscribed to. */
  inboxWatch?: InboxWatch;
  /** The key's duplicate guard and delete record, shared by every session and instance of the key (KeyWritesRegistry); default this server's own. */
  writes?: KeyWrites;
}

/** What the server reads of GET /v1/me, each part checked before it is used. */
interface MeLike {
  scopes?: string[];
  owner?: { id?: string; timezone?: string | null };
  workspaces?: { id: string; member_id?: string }[];
}

export { publishedTool } from './declare/publish.js';
export { SERVER_INSTRUCTIONS } from './instructions.js';

/**
 * The MCP server. Tools are served from our own registry on the low-level server: the
 * SDK's registerTool would validate arguments itself and answer with its own text, where
 * we answer with the API's error envelope and a next step. Resources, prompts and
 * completions use McpServer as is.
 */
export class InboxServer {
  readonly mcp: McpServer;
  private enabled = new Map<string, ToolDef>();
  private hidden: Hidden[] = [];
  private workspaces: string[] = [];
  private scopes: ReadonlySet<string> | null = null;
  private refreshed = false;
  private refreshing: Promise<boolean> | null = null;
  private readonly clientLog: ClientLog;
  private readonly desk: RegisteredResource;
  /** This key's confirmation states (2026-07-28): the codec its instances share, the answers already used. */
  private readonly confirmState: KeyConfirm;
  /** Serving revision 2026-07-28: no handshake, client capabilities on each request. */
  private modern = false;
  private readonly watch: ScopeWatch;
  /** The key's creates and deletes of late, so that a repeated identical call creates nothing and a repeated delete says so. */
  private readonly writes: KeyWrites;
  /** The owner's user and member ids, to map a member id where a user id is taken. */
  private readonly userIds = new UserIds();
  /** This connection's 2026-07-28 listen streams (stdio), by request id, and what they watch. */
  private readonly streams = new Map<string, () => Promise<void>>();
  private listens: KeyListens | null = null;
  /** This session's resource subscriptions, when watching is on. */
  private readonly subscriptions: Subscriptions | null;
  /** The client as tools and resources see it: every JSON answer checked against its endpoint (api-chain.ts). */
  private readonly api: ServerApi;

  constructor(private readonly o: InboxServerOptions) {
    this.mcp = new McpServer(
      { name: o.name, version: o.version },
      {
        capabilities: { tools: { listChanged: true }, logging: {} },
        instructions: SERVER_INSTRUCTIONS,
        jsonSchemaValidator: ANSWER_VALIDATOR,
        // A 2026-07-28 confirmation's state is checked before the call runs: tampered or expired is -32602.
        requestState: { verify: (state, ctx) => this.confirmState.codec.verify(state, ctx) },
        cacheHints: cacheHints((o.scopeRefreshSeconds ?? 300) * 1000),
      },
    );
    this.clientLog = new ClientLog(this.mcp, o.log);
    this.writes = o.writes ?? keyWrites(new MemoryRecords(o.now), { ...(o.now ? { now: o.now } : {}), log: o.log });
    this.confirmState = o.confirmState ?? keyConfirm(processConfirmKey(), this.writes.records);
    this.api = serverApi(o.api);
    const server = this.mcp.server;
    // A client that renders MCP Apps sees which tools have one; any other sees the list as it was.
    server.setRequestHandler('tools/list', (_req, ctx) => {
      const apps = rendersApps(clientCapabilities(server, ctx));
      return { tools: [...this.enabled.values()].map((t) => withDesk(publishedTool(t), apps ? t.desk : undefined)) };
    });
    const deps = this.callDeps();
    server.setRequestHandler('tools/call', (req, ctx) =>
      this.clientLog.during(requestLog(ctx), () =>
        callTool(deps, req.params.name, req.params.arguments, {
          signal: ctx.mcpReq.signal,
          requestId: ctx.mcpReq.id,
          _meta: ctx.mcpReq._meta,
          sendNotification: (n) => ctx.mcpReq.notify(n),
          ...(this.modern ? { modern: { caps: clientCapabilities(server, ctx), ctx, confirm: this.confirmState } } : {}),
        }),
      ),
    );
    const access = this.access();
    // Resources and prompts are shared by every session: they find this one's access per request.
    bindSessionAccess(server, access, o.log, (ctx, run) => {
      // A 2026-07-28 client says what it renders on each request, not once at initialize.
      if (this.modern && rendersApps(clientCapabilities(server, ctx))) this.desk.enable();
      return this.clientLog.during(requestLog(ctx), run);
    });
    // Declared after the binding: given to McpServer's constructor, it would set the resource handlers unbound.
    if (o.inboxWatch) server.registerCapabilities({ resources: { subscribe: true, listChanged: true } });
    registerResources(this.mcp);
    registerPrompts(this.mcp);
    const desk = registerDesk(this.mcp);
    this.desk = desk;
    this.subscriptions = o.inboxWatch ? Subscriptions.ofSession(server, o.inboxWatch, access, o.log) : null;
    this.watch = new ScopeWatch((o.scopeRefreshSeconds ?? 300) * 1000, () => this.refreshQuietly());
    // Per connection, never per process: an HTTP deployment runs one InboxServer per session.
    const initialized = server.oninitialized;
    server.oninitialized = () => {
      initialized?.();
      if (rendersApps(server.getClientCapabilities())) desk.enable();
      this.clientLog.flush();
      this.watch.start();
    };
    const closed = server.onclose;
    server.onclose = () => {
      closed?.();
      this.watch.stop();
      void this.subscriptions?.close();
    };
  }

  /**
   * A 2026-07-28 connection or request has no initialize: start here what the handshake starts
   * on a 2025 one. ClientLog made before it stay in the log on stderr: this revision has no
   * unrequested log message to carry them.
   */
  openModern(): void {
    this.modern = true;
    this.clientLog.drop();
    this.clientLog.perRequest();
  }

  /** Start re-reading the key's scopes on a timer: for a server that lives as long as its connection. */
  watchScopes(): void {
    this.watch.start();
  }

  /** Read GET /v1/me and choose the tools this key can use. Returns whether the list changed. */
  refresh(opts: { force?: boolean } = {}): Promise<boolean> {
    // Concurrent triggers (the timer, an insufficient_scope answer) share one read.
    this.refreshing ??= this.reselect(opts).finally(() => {
      this.refreshing = null;
    });
    return this.refreshing;
  }

  /** The client's limiter saw a bucket spent or a 429: tell the MCP client's log (ClientOptions.onLimiterEvent). */
  limiterEvent(e: LimiterEvent): void {
    this.clientLog.limiter(e);
  }

  /** What resources, prompts and subscriptions read through: this key's API, scopes and workspaces. */
  get inboxAccess(): InboxAccess {
    return this.access();
  }

  /**
   * A 2026-07-28 listen stream on this connection (stdio): its resource URIs are watched until it
   * ends, and their changes go out as resources/updated, which the SDK hands to the streams that
   * name them. Null when it may open; its refusal otherwise.
   */
  async openStream(id: string | number, uris: unknown[]): Promise<ListenRefusal | null> {
    if (!this.subscriptions) return null;
    this.listens ??= new KeyListens(this.subscriptions);
    const opened = await openListen(this.listens, uris, MAX_SUBSCRIPTIONS);
    if ('refused' in opened) return opened.refused;
    this.streams.set(String(id), opened.stop);
    return null;
  }

  /** The listen stream ended (the client cancelled it). */
  closeStream(id: string | number): void {
    const stop = this.streams.get(String(id));
    this.streams.delete(String(id));
    void stop?.();
  }

  /** Resource subscriptions this session holds now. */
  get subscriptionCount(): number {
    return this.subscriptions?.size ?? 0;
  }

  /** Stop the periodic scope refresh; closing the MCP connection does it too. */
  async close(): Promise<void> {
    this.watch.stop();
    await this.subscriptions?.close();
    await this.mcp.close();
  }

  private async reselect(opts: { force?: boolean }): Promise<boolean> {
    const me = (await this.o.api.me(opts.force ? { cache: 'refresh' } : {})).data;
    this.scopes = me.scopes ? new Set(me.scopes) : null;
    this.workspaces = (me.workspaces ?? []).map((w) => w.id);
    this.userIds.learn(me);
    const before = new Set(this.enabled.keys());
    const hiddenBefore = scopeHidden(this.hidden);
    const { enabled, hidden } = selectTools(this.o.tools, { ...this.o.selection, scopes: this.scopes });
    this.enabled = new Map(enabled.map((t) => [t.name, t]));
    this.hidden = hidden;
    const first = !this.refreshed;
    this.refreshed = true;
    const hiddenNow = scopeHidden(hidden);
    if (hiddenNow.length > 0 && (first || hiddenNow.join(',') !== hiddenBefore.join(','))) {
      const scopes = [...new Set(this.o.tools.filter((t) => hiddenNow.includes(t.name)).map((t) => t.endpoint.scope))].join(', ');
      this.clientLog.send('notice', `${hiddenNow.length} tool(s) hidden: the key cannot use the scope ${scopes}: ${hiddenNow.join(', ')}.`, {
        event: 'tools_hidden',
        tools: hiddenNow,
      });
    }
    for (const h of hidden.filter((x) => x.reason === 'read_only')) this.o.log.debug({ tool: h.name }, `tool hidden: ${h.detail}`);
    const added = [...this.enabled.keys()].filter((n) => !before.has(n));
    const removed = [...before].filter((n) => !this.enabled.has(n));
    const changed = !first && (added.length > 0 || removed.length > 0);
    if (changed) {
      const what = [added.length ? `now available: ${added.join(', ')}` : '', removed.length ? `no longer available: ${removed.join(', ')}` : '']
        .filter(Boolean)
        .join('; ');
      this.clientLog.send('notice', `The key's scopes changed, the tool list is updated: ${what}.`, { event: 'tools_changed', added, removed });
      if (this.mcp.isConnected()) this.mcp.sendToolListChanged();
    }
    return changed;
  }

  /** The periodic refresh: a failure keeps the current tools and is told, never thrown. */
  private async refreshQuietly(): Promise<void> {
    // A session closed without our onclose hook (a transport set up elsewhere) stops here.
    if (!this.mcp.isConnected()) {
      this.watch.stop();
      return;
    }
    try {
      await this.refresh({ force: true });
    } catch (err) {
      const body = errorBody(err, 'get_me' satisfies EndpointName);
      this.clientLog.send('warning', `Could not re-read the key's scopes (GET /v1/me): ${body.error.code}: ${body.error.message}`, {
        event: 'scope_refresh_failed',
        code: body.error.code,
      });
    }
  }

  /** What the tools/call pipeline sees of this server. */
  private callDeps(): CallDeps {
    return {
      api: this.api.checked,
      ...(this.o.api.ended ? { ended: this.o.api.ended } : {}),
      log: this.o.log,
      server: this.mcp.server,
      tool: (name) => this.enabled.get(name),
      toolNames: () => this.enabled.keys(),
      hidden: () => this.hidden,
      workspaces: () => this.workspaces,
      defaultWorkspace: () => this.defaultWorkspace,
      userIds: this.userIds,
      recentCreates: this.writes.creates,
      deleted: this.writes.deleted,
      confirm: this.o.confirm ?? 'destructive',
      maxResultBytes: this.maxResultBytes,
      toolDeadlineMs: this.o.toolDeadlineMs ?? DEFAULT_TIMEOUTS.deadlineMs,
      now: this.o.now ?? Date.now,
      ...(this.o.inboxWatch ? { inboxWatch: this.o.inboxWatch } : {}),
      failed: (err, what) => this.failed(err, what),
    };
  }

  /** What resources, prompts and completions see of this server. */
  private access(): InboxAccess {
    return {
      api: this.api.typed,
      workspaces: () => this.workspaces,
      defaultWorkspace: () => this.defaultWorkspace,
      scopes: () => this.scopes,
      maxResultBytes: () => this.maxResultBytes,
      failed: (err, what) => this.failed(err, what),
    };
  }

  /** A call or read failed: the notable failures go to the client's log; a scope refusal re-reads the scopes. */
  private failed(err: unknown, what: string): void {
    const body = errorBody(err, what);
    if (isUpstreamFailure(body.error.code)) {
      this.clientLog.send('error', `${what} failed upstream: ${body.error.code}: ${body.error.message}`, {
        event: 'upstream_failure',
        what,
        code: body.error.code,
        status: body.error.status,
      });
    }
    if (body.error.code === 'insufficient_scope') void this.refresh({ force: true }).catch(() => undefined);
  }

  get toolNames(): string[] {
    return [...this.enabled.keys()];
  }
  get hiddenTools(): readonly Hidden[] {
    return this.hidden;
  }
  get maxResultBytes(): number {
    return this.o.maxResultBytes ?? DEFAULT_MAX_RESULT_BYTES;
  }
  get defaultWorkspace(): string | undefined {
    return this.o.defaultWorkspace ?? (this.workspaces.length === 1 ? this.workspaces[0] : undefined);
  }
}

/** Tools hidden because the key lacks their scope, by name. */
function scopeHidden(hidden: readonly Hidden[]): string[] {
  return hidden
    .filter((h) => h.reason === 'scope')
    .map((h) => h.name)
    .sort();
}

/** The request's own log notifications (at the level the request asks for, in either era). */
function requestLog(ctx: ServerContext): RequestLog {
  return (level, data) => ctx.mcpReq.log(level, data, 'reply-inbox-mcp');
}
