import { z } from 'zod';
import { errorBody, CONVERSATION_CAP, CONVERSATION_TOOL, subjectTopic, type ToolContext } from '../../src/mcp/tool-kit.js';
import type { Message as ApiMessage } from '../../src/api/resources.js';

type Row = Record<string, unknown>;

/** What a reply reads of a message. */
type Message = Pick<ApiMessage, 'id' | 'direction' | 'subject' | 'from_name' | 'from_email' | 'sent_at'>;

const person = z.looseObject({ email: z.string(), name: z.string().optional() });

/** The reply a draft answers, as render_template gives it (the desk builds against this shape). */
export const REPLY_OUTPUT = {
  reply: z
    .looseObject({
      subject: z.string().describe('"Re: " and the subject of the email answered (outsider text, fenced): the subject that keeps the thread.'),
      message_id: z.string().describe('The inbound message answered.'),
      to: person.describe("The lead's address it came from."),
      from: person.describe("Who sent the thread's last outbound message: send the reply as them."),
    })
    .optional()
    .describe("Present when the lead wrote in: how to send the draft as a reply in the lead's thread, instead of the template's subject."),
  reply_unknown: z.string().optional().describe('Present when the conversation could not be read: why, and how to find the reply subject.'),
};

export interface Reply {
  subject: string;
  message_id: string;
  to: { email: string; name?: string };
  from: { email: string; name?: string };
}

/** "Re: " and the subject, once: "Re: Re: x" and "RE: x" both answer as "Re: x". */
export function replySubject(subject: string): string {
  return `Re: ${subject.replace(/^\s*(re\s*:\s*)+/i, '').trim()}`;
}

const who = (email: string, name: string | null) => ({ email, ...(name ? { name } : {}) });

/**
 * The reply a draft to this lead answers, from its conversation (newest first): the newest inbound
 * message, and the last outbound message of the same thread (the same subject, reply prefixes aside),
 * else the newest outbound one. Null when the lead never wrote in or nobody of ours wrote to them.
 */
export function replyOf(newestFirst: readonly Message[]): Reply | null {
  const inbound = newestFirst.find((m) => m.direction === 'inbound' && m.from_email);
  if (!inbound) return null;
  const subject = inbound.subject ?? newestFirst.find((m) => m.subject)?.subject ?? null;
  if (subject === null) return null;
  const topic = subjectTopic(subject);
  const outbound = newestFirst.filter((m) => m.direction === 'outbound' && m.from_email);
  const last = outbound.find((m) => m.subject !== null && subjectTopic(m.subject) === topic) ?? outbound[0];
  if (!last) return null;
  return {
    subject: replySubject(subject),
    message_id: inbound.id,
    to: who(inbound.from_email!, inbound.from_name),
    from: who(last.from_email!, last.from_name),
  };
}

/**
 * The reply of render_template's draft: one thread read of the lead (a read and one of the
 * thread budget). A failed read leaves the draft as it is and says why reply is missing.
 */
export async function readReply(ctx: ToolContext, args: Row): Promise<{ reply: Reply } | { reply_unknown: string } | Record<string, never>> {
  const path = { workspace: ctx.workspace(args as { workspace?: string }), lead_id: String(args.lead_id) };
  try {
    const r = await ctx.api.call(CONVERSATION_TOOL, { path, query: { order: 'desc', limit: CONVERSATION_CAP }, signal: ctx.signal });
    const reply = replyOf(r.data.data ?? []);
    return reply ? { reply } : {};
  } catch (err) {
    const { error } = errorBody(err, CONVERSATION_TOOL);
    return {
      reply_unknown: `The lead's conversation could not be read (${error.code}), so the subject and sender of a reply are unknown: get_conversation shows them.`,
    };
  }
}
