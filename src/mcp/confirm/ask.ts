import { inputRequired, inputResponse } from '@modelcontextprotocol/server';
import type { ClientCapabilities, InputRequiredResult, Server, ServerContext } from '@modelcontextprotocol/server';
import type { ToolError } from '../errors.js';
import type { ApiCaller } from '../declare/tool-context.js';
import type { ToolDef } from '../declare/define.js';
import { oneLineReason } from '../view/quote.js';
import { NO_FIELDS } from './answers.js';
import { type ConfirmMode, asksFirst, declined, questionFor } from './confirm.js';
import { argsDigest, type ConfirmState, type KeyConfirm, newOnce } from './state.js';

/**
 * A 2026-07-28 tools/call as a confirmation sees it: the client's capabilities from the request,
 * the person's answer and the verified state when this is the second round.
 */
export interface ModernRound {
  caps: ClientCapabilities | undefined;
  ctx: ServerContext;
  confirm: KeyConfirm;
}

/**
 * Ask the person at the client (elicitation) before a consequential write. Returns null when
 * the write may go ahead: accepted, not consequential under `mode`, or a client that cannot
 * ask (it behaves as before). Otherwise the tool's answer: nothing was sent.
 */
export async function confirmWrite(
  server: Server,
  o: {
    mode: ConfirmMode;
    tool: ToolDef;
    args: Record<string, unknown>;
    api: ApiCaller;
    workspace: string | null;
    signal: AbortSignal;
    /** The key's client has closed (the drain's time is up): a question still waiting is given up, so the call answers before the server closes. */
    ended?: AbortSignal;
    requestId?: string | number;
    /** How long the person may take: what is left of the tool call's deadline, so the call still answers in time. */
    answerWithinMs: number;
    /** Set on a 2026-07-28 request: the question travels as input_required, not as a request of ours. */
    modern?: ModernRound;
  },
): Promise<ToolError | InputRequiredResult | null> {
  if (o.modern) return confirmModern(o, o.modern);
  if (!server.getClientCapabilities()?.elicitation?.form || !asksFirst(o.mode, o.tool, o.args)) return null;
  const message = await questionFor(o.api, o.tool, o.args, o.workspace, o.signal);
  try {
    const answer = await server.elicitInput(
      { mode: 'form', message, requestedSchema: NO_FIELDS },
      {
        signal: o.ended ? AbortSignal.any([o.signal, o.ended]) : o.signal,
        timeout: o.answerWithinMs,
        // Over HTTP the question travels on the tool call's own response stream.
        relatedRequestId: o.requestId,
      },
    );
    return answer.action === 'accept' ? null : declined(o.tool.name, answer.action);
  } catch (err) {
    // A client's malformed answer comes with a multi-line validation dump: one line of it says enough.
    return declined(o.tool.name, 'failed', oneLineReason(err instanceof Error ? err.message : String(err)));
  }
}

/**
 * The same question on revision 2026-07-28, in two rounds of one tools/call: the first answers
 * input_required with the question and a signed state bound to this key, tool and arguments;
 * the client asks the person and calls again with the answer and the state. A state that was
 * tampered with or expired is refused by the SDK before this runs (-32602); one for another
 * call, one answered already, or a missing answer writes nothing.
 */
async function confirmModern(
  o: { mode: ConfirmMode; tool: ToolDef; args: Record<string, unknown>; api: ApiCaller; workspace: string | null; signal: AbortSignal },
  r: ModernRound,
): Promise<ToolError | InputRequiredResult | null> {
  const caps = r.caps?.elicitation;
  // A bare elicitation capability means forms, as in the 2025 revisions.
  const asks = caps !== undefined && (caps.form !== undefined || Object.keys(caps).length === 0);
  if (!asks || !asksFirst(o.mode, o.tool, o.args)) return null;
  const state = await r.ctx.mcpReq.requestState<ConfirmState>();
  if (state !== undefined && typeof state === 'object') {
    if (state.tool !== o.tool.name || state.args !== argsDigest(o.args)) return declined(o.tool.name, 'failed', 'the answer was for another call');
    const answer = inputResponse(r.ctx.mcpReq.inputResponses, 'confirm');
    if (answer.kind !== 'elicit') return declined(o.tool.name, 'failed', 'no answer came with the call');
    if (!(await r.confirm.used.take(state.once))) return declined(o.tool.name, 'failed', 'this answer was given to an earlier call');
    return answer.action === 'accept' ? null : declined(o.tool.name, answer.action);
  }
  const message = await questionFor(o.api, o.tool, o.args, o.workspace, o.signal);
  const requestState = await r.confirm.codec.mint({ tool: o.tool.name, args: argsDigest(o.args), once: newOnce() }, r.ctx);
  return inputRequired({ inputRequests: { confirm: inputRequired.elicit({ message, requestedSchema: NO_FIELDS }) }, requestState });
}
