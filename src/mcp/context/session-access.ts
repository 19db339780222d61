import { AsyncLocalStorage } from 'node:async_hooks';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { InboxAccess } from './access.js';

/**
 * The access of the session whose request is being answered. The SDK calls a completable
 * argument's completer with the typed value and the other arguments only, so argument
 * schemas shared by every session (built once per process, not once per session) find the
 * session here instead of in a closure of their own.
 */
const current = new AsyncLocalStorage<InboxAccess>();

type SetHandler = Server['setRequestHandler'];

/** Every request handler set on this server from now on runs with this session's access. */
export function bindSessionAccess(server: Server, access: InboxAccess): void {
  const set: SetHandler = server.setRequestHandler.bind(server);
  const bound = (schema: Parameters<SetHandler>[0], handler: Parameters<SetHandler>[1]) =>
    set(schema, (request, extra) => current.run(access, () => handler(request, extra)));
  server.setRequestHandler = bound as SetHandler;
}

/** A completer made per request from the answering session's access; nothing outside a bound request. */
export function sessionCompleter<A extends unknown[], R>(make: (access: InboxAccess) => (...args: A) => R | Promise<R>, none: R) {
  return (...args: A): R | Promise<R> => {
    const access = current.getStore();
    return access ? make(access)(...args) : none;
  };
}
