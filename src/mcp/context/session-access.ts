import { AsyncLocalStorage } from 'node:async_hooks';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import type { Logger } from 'pino';
import { DEFAULT_MAX_RESULT_BYTES } from '../view/result-budget.js';
import type { InboxAccess } from './access.js';

/** The session whose request is being answered: what it may read, and its log. */
interface Answering {
  access: InboxAccess;
  log: Logger;
}

/**
 * The session whose request is being answered. The SDK calls a completable argument's
 * completer with the typed value and the other arguments only, and a resource's read with the
 * URI, so what is shared by every session (built once per process, not once per session: an
 * HTTP server holds one McpServer per session) finds the session here instead of in a closure
 * of its own.
 */
const current = new AsyncLocalStorage<Answering>();

type SetHandler = Server['setRequestHandler'];

/** Every request handler set on this server from now on runs with this session's access. */
export function bindSessionAccess(server: Server, access: InboxAccess, log: Logger): void {
  const set: SetHandler = server.setRequestHandler.bind(server);
  const answering: Answering = { access, log };
  const bound = (schema: Parameters<SetHandler>[0], handler: Parameters<SetHandler>[1]) =>
    set(schema, (request, extra) => current.run(answering, () => handler(request, extra)));
  server.setRequestHandler = bound as SetHandler;
}

/** A completer made per request from the answering session's access; nothing outside a bound request. */
export function sessionCompleter<A extends unknown[], R>(make: (access: InboxAccess) => (...args: A) => R | Promise<R>, none: R) {
  return (...args: A): R | Promise<R> => {
    const access = current.getStore()?.access;
    return access ? make(access)(...args) : none;
  };
}

function answering(): Answering {
  const a = current.getStore();
  if (!a) throw new McpError(ErrorCode.InternalError, 'No session is being answered.');
  return a;
}

/** The log of the session being answered. */
export const sessionLog = (): Logger => answering().log;

/** The access of whichever session is being answered, for reads built once per process. */
export const SESSION_ACCESS: InboxAccess = {
  get api() {
    return answering().access.api;
  },
  workspaces: () => answering().access.workspaces(),
  defaultWorkspace: () => answering().access.defaultWorkspace(),
  scopes: () => answering().access.scopes(),
  maxResultBytes: () => answering().access.maxResultBytes?.() ?? DEFAULT_MAX_RESULT_BYTES,
  failed: (err, what) => answering().access.failed(err, what),
};

type Registering = 'registerResource' | 'registerPrompt';

/**
 * Registrations made once per process, on a recorder, and given again to each session's
 * server: their templates, schemas, metadata and callbacks are shared by every session, and
 * the callbacks find the session being answered per request (SESSION_ACCESS, sessionLog).
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
