import { randomBytes } from 'node:crypto';
import { htmlToText } from '../api/text.js';
import { hashSecret } from './auth.js';
import { SANDBOX_KEYS, type SandboxKeyName } from './seed/keys.js';
import { paragraphsToHtml } from './seed/conversations.js';
import { previewOf } from './seed/leads.js';
import { iso } from './seed/time.js';
import type { Store } from './store/store.js';
import type { ReplyRec } from './store/types.js';

/**
 * Run-time changes no v1 endpoint can make, for tests and demos of what the spec says
 * happens on its own (a key owner demoted, a new inbound reply). In-process only: they
 * are reachable through startSandbox's result, never over HTTP.
 */
export function setUserRole(store: Store, userId: string, role: 'admin' | 'user'): void {
  const u = store.users.get(userId);
  if (!u) throw new Error(`no user ${userId}`);
  u.role = role;
}

/** What a simulated reply says unless the caller (a test of hostile text) gives its own paragraphs. */
const CIRCLING_BACK = ['Circling back on this: is the offer still open, and could we talk this week?'];

const stampMs = (s: string | null | undefined) => (s ? Date.parse(s) : 0);

/**
 * A new inbound reply arrives on a lead (States: "a strictly newer inbound reply" flags the
 * lead unread again and sets responded back). Without `at` it lands one second after the
 * newest thing the lead knows (message, receipt or responded stamp), or now if later, so
 * it is strictly newer whatever clock the seed and the writes used. `paragraphs` are the body,
 * escaped into its HTML as a sender's text would be; `now` is the sandbox's clock.
 */
export function simulateInboundReply(
  store: Store,
  leadId: string,
  at?: Date,
  paragraphs: readonly string[] = CIRCLING_BACK,
  now: () => number = Date.now,
): ReplyRec {
  const lead = store.leads.get(leadId);
  if (!lead) throw new Error(`no lead ${leadId}`);
  // Build the conversation from the lead as seeded before the lead's fields move on.
  const conversation = store.conversation(lead);
  const known = [lead.last_message_at, lead.last_inbound_at, lead.responded_at, lead.workspace_read_at, ...lead.receipts.values()];
  const whenMs = at ? at.getTime() : Math.max(now(), ...known.map((s) => stampMs(s) + 1000));
  const when = iso(whenMs);
  const reply = store.addReply({
    id: `rep_${randomBytes(9).toString('hex')}`,
    lead_id: lead.id,
    workspace: lead.workspace,
    email: lead.email,
    subject: lead.subject,
    body_preview: previewOf(paragraphs),
    status: null,
    classification: null,
    direction: 'received',
    received_at: when,
    campaign_id: null,
    campaign_name: null,
  });
  if (whenMs > stampMs(lead.last_inbound_at)) lead.last_inbound_at = when;
  if (whenMs >= stampMs(lead.last_message_at)) {
    Object.assign(lead, {
      latest_reply_id: reply.id,
      last_message_at: when,
      last_message_direction: 'received',
      body_preview: reply.body_preview,
      campaign_id: null,
      campaign_name: null,
      indexed_at: when,
    });
    store.leads.touch(lead.workspace);
  }
  const html = paragraphsToHtml(paragraphs);
  conversation.push({
    id: `msg_${randomBytes(9).toString('hex')}`,
    lead_id: lead.id,
    kind: 'reply',
    direction: 'inbound',
    reply_id: reply.id,
    subject: lead.subject,
    from_name: [lead.first_name, lead.last_name].filter(Boolean).join(' ') || null,
    from_email: lead.email,
    to_email: null,
    body_html: html,
    body_text: htmlToText(html),
    sent_at: when,
    attachments: [],
    thread_index: conversation[conversation.length - 1]?.thread_index ?? 0,
  });
  return reply;
}

/**
 * A new live key like one of the fixed keys (same owner, reach and scopes) but with an id,
 * secret and rate buckets of its own: for tests and benchmarks that need many keys (a
 * made-up key is refused). Returns the key string; the store keeps only its hash.
 */
export function issueKey(store: Store, like: SandboxKeyName = 'rep'): string {
  const model = store.keysByHash.get(hashSecret(SANDBOX_KEYS[like]));
  if (!model) throw new Error(`no key like ${like}`);
  const handle = randomBytes(4).toString('hex');
  const secret = `rik_live_${handle}_${randomBytes(16).toString('hex')}`;
  store.keysByHash.set(hashSecret(secret), {
    ...model,
    id: `key_${handle}`,
    name: `issued key ${handle}`,
    handle,
    secret_hash: hashSecret(secret),
    last_used_at: null,
    description: `Issued like the ${like} key`,
  });
  return secret;
}
