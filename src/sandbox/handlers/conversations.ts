import { LIMITS } from '../../api/enums.js';
import type { AreaHandlers, Ctx } from '../context.js';
import { notFound } from '../errors.js';
import { compareKeys } from '../paging.js';
import type { Store } from '../store/store.js';
import type { MessageRec } from '../store/types.js';
import { messageView } from '../views/lead.js';
import { leadOf } from './leads.js';

const MAX_AGE_SECONDS = 600;

/** When each lead's conversation was last fetched "upstream", per sandbox (the spec's 10-minute cache). */
const fetchedAt = new WeakMap<Store, Map<string, number>>();

/**
 * Age of the cached conversation: a fresh sandbox has cached nothing, so the first read
 * fetches (0), as do refresh and a cache older than 600 s; any other read gives the time
 * since that conversation was fetched.
 */
function cacheAge(ctx: Ctx, leadId: string, refresh: boolean): number {
  let byLead = fetchedAt.get(ctx.store);
  if (!byLead) fetchedAt.set(ctx.store, (byLead = new Map()));
  const now = ctx.now().getTime();
  const before = byLead.get(leadId);
  const at = refresh || before === undefined || now - before > MAX_AGE_SECONDS * 1000 ? now : before;
  byLead.set(leadId, at);
  return Math.floor((now - at) / 1000);
}

/** The messages of at most 12 sibling threads, those with the newest activity. */
function assemble(messages: readonly MessageRec[]): { messages: MessageRec[]; capped: boolean } {
  const newest = new Map<number, string>();
  for (const m of messages) {
    const t = newest.get(m.thread_index);
    if (m.sent_at && (t === undefined || m.sent_at > t)) newest.set(m.thread_index, m.sent_at);
    else if (t === undefined) newest.set(m.thread_index, '');
  }
  if (newest.size <= LIMITS.sibling_threads_max) return { messages: [...messages], capped: false };
  const keep = new Set(
    [...newest.entries()]
      .sort((a, b) => (a[1] < b[1] ? 1 : a[1] > b[1] ? -1 : b[0] - a[0]))
      .slice(0, LIMITS.sibling_threads_max)
      .map(([t]) => t),
  );
  return { messages: messages.filter((m) => keep.has(m.thread_index)), capped: true };
}

export const conversationsHandlers = {
  get_conversation(ctx) {
    const lead = leadOf(ctx);
    const q = ctx.query;
    const { messages, capped } = assemble(ctx.store.conversation(lead));
    const newestFirst = messages.sort((a, b) => compareKeys([b.sent_at, b.id], [a.sent_at, a.id]));
    // There is no cursor here, so the window is always the newest messages; order only sorts it.
    const limit = Math.min(q.limit ?? LIMITS.page_default, LIMITS.messages_max);
    const window = newestFirst.slice(0, limit);
    if (q.order === 'asc') window.reverse();
    const data = window.map(messageView);
    return {
      body: {
        object: 'list',
        data,
        has_more: false,
        next_cursor: null,
        meta: { truncated: newestFirst.length > data.length, sibling_cap_reached: capped, cache_age_seconds: cacheAge(ctx, lead.id, q.refresh === true) },
      },
    };
  },

  download_attachment(ctx) {
    const lead = leadOf(ctx);
    const id = ctx.path.attachment_id;
    for (const m of ctx.store.conversation(lead)) {
      const a = m.attachments.find((x) => x.id === id);
      if (a) return { binary: Buffer.from(a.content, 'utf8'), filename: a.filename };
    }
    return notFound('attachment on this lead', 'attachment_id');
  },
} satisfies AreaHandlers;
