import { ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/server';
import type { Server, McpServer, CompleteRequest, ServerContext } from '@modelcontextprotocol/server';
import type { Logger } from 'pino';
import type { InboxAccess } from './access.js';

/** The session a request came to: what it may read, and its log. */
export interface Answering {
  access: InboxAccess;
  log: Logger;
}

/** What a completer is called with besides the typed value: the other arguments already chosen. */
export type CompletionContext = { arguments?: Record<string, string> } | undefined;

/**
 * The session of each request being answered, keyed by an object the SDK hands on to what is
 * shared by every session (built once per process, not once per session: an HTTP server holds
 * one McpServer per session): a read's or a prompt's `extra`, a completer's context. The
 * session is passed with the request, never held in an ambient store: an AsyncLocalStorage
 * would turn on promise hooks for the whole process on Node 20, and every later tool call
 * would pay for them.
 */
const ANSWERING = new WeakMap<object, Answering>();

type SetHandler = Server['setRequestHandler'];
type Handler = (request: { method: string }, ctx: ServerContext) => unknown;

/** Every request handler set on this server from now on answers with this session's access. */
export function bindSessionAccess(
  server: Server,
  access: InboxAccess,
  log: Logger,
  around: (ctx: ServerContext, run: () => Promise<unknown>) => Promise<unknown> = (_ctx, run) => run(),
): void {
  const set = server.setRequestHandler.bind(server) as (method: string, handler: Handler) => void;
  const answering: Answering = { access, log };
  const bound = (method: string, handler: Handler) =>
    set(method, (request, ctx) => {
      ANSWERING.set(ctx, answering);
      return around(ctx, async () => handler(request.method === 'completion/complete' ? withContext(request as CompleteRequest, answering) : request, ctx));
    });
  server.setRequestHandler = bound as unknown as SetHandler;
}

/** The completion request with a context of its own, which the SDK gives the completer and which names the session. */
function withContext<R extends CompleteRequest>(request: R, answering: Answering): R {
  const context = { ...request.params.context };
  ANSWERING.set(context, answering);
  return { ...request, params: { ...request.params, context } };
}

/** The session answering the request this `extra` came with. */
export function sessionOf(extra: object): Answering {
  const a = ANSWERING.get(extra);
  if (!a) throw new ProtocolError(ProtocolErrorCode.InternalError, 'No session is being answered.');
  return a;
}

/** A completer made per request from the asking session's access; nothing outside a bound request. */
export function sessionCompleter<T, R>(make: (access: InboxAccess) => (value: T, context?: CompletionContext) => R | Promise<R>, none: R) {
  return (value: T, context?: CompletionContext): R | Promise<R> => {
    const access = context && ANSWERING.get(context)?.access;
    return access ? make(access)(value, context) : none;
  };
}

type Registering = 'registerResource' | 'registerPrompt';

/**
 * Registrations made once per process, on a recorder, and given again to each session's
 * server: their templates, schemas, metadata and callbacks are shared by every session, and
 * the callbacks find the session of each request from what the request passes them
 * (sessionOf, sessionCompleter).
 */
export class SharedRegistrations<K extends Registering> {
  private made: unknown[][] | undefined;

  constructor(
    private readonly method: K,
    private readonly fill: (target: Pick<McpServer, K>) => void,
  ) {}

  /** Register on this session's server; returns what the server made of each registration. */
  registerOn(mcp: McpServer): unknown[] {
    if (!this.made) {
      const made: unknown[][] = [];
      this.fill({ [this.method]: (...args: unknown[]) => made.push(args) } as unknown as Pick<McpServer, K>);
      this.made = made;
    }
    const register = mcp[this.method] as (...args: unknown[]) => unknown;
    return this.made.map((args) => register.apply(mcp, args));
  }
}
