import type { Endpoint, EndpointName } from '../../api/endpoints.js';
import type { ReturnOf } from '../../api/returns.js';
import { TimeoutError } from '../../client/errors.js';
import type { ApiAnswer, ApiCaller, ApiClient, ApiRequestOf } from '../declare/tool-context.js';
import { Continuation } from '../reads/continuation.js';
import { type MultiPageOptions, multiPageApi } from '../reads/multipage.js';
import { checkedApi } from './response-check.js';

/**
 * The API as each part of the server calls it: one chain of layers around the client, built
 * here and nowhere else, in this order from the client out:
 *   1. checked   every JSON answer checked against its row's return schema (response-check.ts)
 *   2. deadline  each call gets what is left of its tool call's deadline; none is sent past it
 *   3. paging    a multi-page tool's own list read a page at a time, as the answer has room (multipage.ts)
 *   4. recorded  the tool's own list request, kept for the cursor that continues a cut answer (continuation.ts)
 * Resources, prompts and completions call through 1 (serverApi); a tool call's confirmation
 * question through 1 and 2, the tool itself through all four (toolCallApi). Only the outside
 * is typed: what came through 1 is what its row's schema says, so `typed` reads it as ReturnOf.
 */

/** The server's layer: the client, every answer checked. */
export interface ServerApi {
  /** For the layers of each tool call. */
  checked: ApiClient;
  /** For resources, prompts, completions and the scope watch. */
  typed: ApiCaller;
}

export function serverApi(client: ApiClient): ServerApi {
  const checked = checkedApi(client);
  return { checked, typed: typed(checked) };
}

/** What one tool call runs with. */
export interface ToolCallApi {
  /** What the tool's run calls (ToolContext.api): all four layers. */
  tool: ApiCaller;
  /** What the confirmation question reads with: checked, within the deadline. */
  question: ApiCaller;
  /** The multi-page read, when the tool pages (null for one page). */
  paging: ReturnType<typeof multiPageApi> | null;
  /** Where a cut list answer continues. */
  cont: Continuation;
}

export interface ToolCallOptions {
  endpoint: Endpoint;
  /** The tool call's whole deadline (ms), and when it ends on the server's clock. */
  deadlineMs: number;
  deadlineAt: number;
  now: () => number;
  /** The item bound of a multi-page read; undefined for one page. */
  bound: number | undefined;
  signal: AbortSignal;
  /** A multi-page read's progress: items read, the bound, a line for a person. */
  onPage: NonNullable<MultiPageOptions['onPage']>;
}

export function toolCallApi(server: ApiClient, o: ToolCallOptions): ToolCallApi {
  const timed = withDeadline(server, o);
  const cont = new Continuation(o.endpoint, (name, req) => timed.call(name, req));
  const paging =
    o.bound === undefined
      ? null
      : multiPageApi(timed, o.endpoint.name, {
          maxItems: o.bound,
          signal: o.signal,
          onPage: o.onPage,
          onBoundary: (n, c) => cont.boundary(n, c),
        });
  return { tool: typed(cont.wrap(paging ?? timed)), question: typed(timed), paging, cont };
}

/**
 * Every API call of one tool call gets what is left of the tool call's deadline: a call that
 * makes two requests (a list cut to the budget, a confirmed write) still answers within it.
 */
function withDeadline(api: ApiClient, o: Pick<ToolCallOptions, 'deadlineMs' | 'deadlineAt' | 'now'>): ApiClient {
  return {
    call: async (name, req) => {
      const left = o.deadlineAt - o.now();
      // Nothing is sent once the tool call's time is spent: the caller hears timeout, never a late answer.
      if (left <= 0)
        throw new TimeoutError(name, `The tool call did not finish within its ${o.deadlineMs} ms deadline; ${name} was not sent.`, 'deadline', 'no');
      return api.call(name, { ...req, deadlineMs: left });
    },
  };
}

/** The chain's outside, typed by the row: only ever over the checked layer, whose answers are what their rows' schemas say. */
function typed(api: ApiClient): ApiCaller {
  return {
    call: <N extends EndpointName>(name: N, req: ApiRequestOf<N>) => api.call(name, req) as Promise<ApiAnswer<ReturnOf<N>>>,
    send: (name, req) => api.call(name, req),
  };
}
