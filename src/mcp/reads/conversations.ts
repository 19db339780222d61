import { ToolError, errorBody } from '../errors.js';
import { type Fence, UNTRUSTED_LINE } from '../view/fence.js';
import type { ToolOutput } from '../view/output.js';
import {
  CONVERSATION_CAP,
  CONVERSATION_TOOL,
  type ConversationArgs,
  SIBLING_CAP,
  type ReaderContext,
  type Shaped,
  type ShapedMessage,
  messageLines,
  readConversation,
} from './conversation.js';

/** The most leads one get_conversation call reads (lead_ids). */
export const MANY_LEADS_MAX = 10;
/** Messages of each lead by default when several are read: the newest few, so ten threads fit one result. */
export const MANY_LEADS_MESSAGES = 2;
/** Thread requests in flight at once; each still waits its turn at the rate limiter. */
const PARALLEL = 3;

type Row = Record<string, unknown>;
type Many = Omit<ConversationArgs, 'lead_id'> & { lead_ids: string[] };
type One = (Shaped & Row) | { lead_id: string; error: Row; next_step: string };

/**
 * get_conversation with lead_ids: the newest few messages of each lead, one thread request
 * per lead through the client (its rate limiter); a lead that fails shows its error and
 * hides none of the others.
 */
export async function runConversations(ctx: ReaderContext, raw: Record<string, unknown>): Promise<ToolOutput> {
  const { lead_ids, ...shared } = raw as unknown as Many;
  if (shared.message_id !== undefined) {
    throw new ToolError('invalid_request', CONVERSATION_TOOL, 'message_id reads one message of one lead: pass lead_id, not lead_ids.', {
      status: 400,
      param: 'message_id',
    });
  }
  const ids = [...new Set(lead_ids)];
  const each: ConversationArgs[] = ids.map((lead_id) => ({ ...shared, lead_id, limit: shared.limit ?? MANY_LEADS_MESSAGES }));
  const conversations = await inTurn(each, PARALLEL, async (args): Promise<One> => {
    try {
      return slim(await readConversation(ctx, args));
    } catch (err) {
      const body = errorBody(err, CONVERSATION_TOOL);
      return { lead_id: args.lead_id, error: body.error as Row, next_step: body.next_step };
    }
  });
  const order = shared.order ?? 'asc';
  const failed = conversations.filter((c) => 'error' in c).length;
  return {
    structured: { body_format: shared.format === 'html' ? 'html' : 'text', leads: ids.length, failed, conversations },
    render: (s, fence) => manyText(s.conversations as One[], order, fence),
    items: {
      key: 'conversations',
      keep: 'head',
      // The leads a cut left out, read as this call read the others.
      rest: (kept) => ({ ...raw, lead_ids: ids.slice(kept) }),
    },
  };
}

/**
 * A lead's thread as ten share one result: the format is said once for all, and a sender is
 * named where it changes (absent from_name and from_email: the same as the message before).
 */
function slim(c: Shaped & Row): Shaped & Row {
  const { body_format: _once, meta, ...rest } = c;
  let before: string | null = null;
  const messages = c.messages.map((m) => {
    const who = JSON.stringify([m.from_name, m.from_email]);
    const same = who === before;
    before = who;
    if (!same) return m;
    const { from_name: _n, from_email: _e, ...kept } = m;
    return kept as ShapedMessage;
  });
  return { ...rest, ...(Object.keys(meta).length ? { meta } : {}), messages } as Shaped & Row;
}

/** Run `work` over `items` with at most `width` at once, answers in the order of the items. */
async function inTurn<T, R>(items: T[], width: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await work(items[i] as T);
    }
  };
  await Promise.all(Array.from({ length: Math.min(width, items.length) }, worker));
  return out;
}

/** Each lead's conversation under its own heading: its counts, its messages or its error. */
function manyText(conversations: One[], order: 'asc' | 'desc', fence: Fence): string {
  const failed = conversations.filter((c) => 'error' in c).length;
  const lines = [
    UNTRUSTED_LINE,
    '',
    `Conversations of ${conversations.length} lead${conversations.length === 1 ? '' : 's'}${failed ? ` (${failed} failed: see each)` : ''}. A message without From is from the sender of the one before.`,
  ];
  const cached = conversations.some((c) => !('error' in c) && (c as Shaped).meta?.cache_age_seconds);
  if (cached) lines.push('A thread served from the cache says how old it is (refresh=true for a fresh copy).');
  for (const c of conversations) {
    if ('error' in c) lines.push('', `## Lead ${c.lead_id}`, `Failed: ${JSON.stringify(c.error)}`, String(c.next_step));
    else lines.push('', leadHeading(c as Shaped, order), ...messageLines((c as Shaped).messages, fence));
  }
  return lines.join('\n');
}

/** One line per lead: its true counts, the call that reads its older messages, the cache's age. */
function leadHeading(c: Shaped, order: 'asc' | 'desc'): string {
  const { shown, offset = 0, returned_by_api: returned, older_not_shown: older } = c.counts;
  const which = offset === 0 ? `newest ${shown}` : `numbers ${offset + 1}-${offset + shown} from the newest`;
  const parts = [
    `${which} of ${returned}${c.counts.longer_than_api_serves ? ` (the API's cap of ${CONVERSATION_CAP}; older ones cannot be read)` : ''} shown, ${order === 'asc' ? 'oldest first' : 'newest first'}`,
  ];
  if (c.older) parts.push(`${older} older: get_conversation ${JSON.stringify(c.older.fetch_rest)}`);
  if (c.meta?.sibling_cap_reached) parts.push(`only ${SIBLING_CAP} of its email threads assembled (list_replies lists the replies of all)`);
  if (c.meta?.cache_age_seconds) parts.push(`cache ${c.meta.cache_age_seconds} s old`);
  return `## Lead ${c.lead_id}: ${parts.join('; ')}`;
}
