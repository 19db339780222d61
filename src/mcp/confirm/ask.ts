import type { Server } from '@modelcontextprotocol/server';
import type { ToolError } from '../errors.js';
import type { ApiCaller } from '../tool/context.js';
import type { ToolDef } from '../tool/define.js';
import { oneLineReason } from '../view/quote.js';
import { NO_FIELDS } from './answers.js';
import { type ConfirmMode, asksFirst, declined, questionFor } from './confirm.js';

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
    requestId?: string | number;
    /** How long the person may take: what is left of the tool call's deadline, so the call still answers in time. */
    answerWithinMs: number;
  },
): Promise<ToolError | null> {
  if (!server.getClientCapabilities()?.elicitation?.form || !asksFirst(o.mode, o.tool, o.args)) return null;
  const message = await questionFor(o.api, o.tool, o.args, o.workspace, o.signal);
  try {
    const answer = await server.elicitInput(
      { mode: 'form', message, requestedSchema: NO_FIELDS },
      {
        signal: o.signal,
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
