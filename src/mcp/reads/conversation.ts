import { createHash } from 'node:crypto';
import type { ToolEndpointName } from '../../api/endpoints.js';
import { type Message, type MessageListMeta, messageListMeta } from '../../api/resources.js';
import { htmlToText } from '../../api/text.js';
import { redactSecrets } from '../../redact.js';
import { notFound } from '../errors.js';
import type { ToolContext } from '../declare/tool-context.js';
import { type Fence, UNTRUSTED_LINE } from '../view/fence.js';
import { oneLine } from '../view/lines.js';
import { isOutsideField, isPlainMediaType } from '../view/shape.js';
import type { ToolOutput } from '../view/output.js';

/** What the readers need of a call: a tool's context without its endpoint, as a resource has no tool. */
export type ReaderContext = Omit<ToolContext, 'endpoint' | 'clock'>;

export interface ConversationArgs {
  workspace?: string;
  lead_id: string;
  limit?: number;
  offset?: number;
  order?: 'asc' | 'desc';
  refresh?: boolean;
  format?: 'text' | 'html';
  max_body_chars?: number;
  message_id?: string;
  fold_quotes?: boolean;
}

export const DEFAULT_BODY_CHARS = 600;
/** Messages shown by default: the newest few, enough to triage a reply. */
export const DEFAULT_MESSAGES = 10;
/** The tool and endpoint a conversation is read with: a refusal names it. */
export const CONVERSATION_TOOL = 'get_conversation' satisfies ToolEndpointName;
/** The most messages the service returns for one conversation (spec: Messages rules). */
export const CONVERSATION_CAP = 200;

/** Fold quoted history (lines starting with '>' and the "On … wrote:" line before them). */
export function foldQuotes(text: string): { text: string; folded: number } {
  const lines = text.split('\n');
  const out: string[] = [];
  let folded = 0;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] as string;
    const next = lines[i + 1] ?? '';
    const header = /^\s*On .+ wrote:\s*$/.test(line) && /^\s*>/.test(next);
    if (/^\s*>/.test(line) || header) {
      let n = 0;
      while (
        i < lines.length &&
        (/^\s*>/.test(lines[i] as string) || (n === 0 && /^\s*On .+ wrote:\s*$/.test(lines[i] as string)) || (lines[i] as string).trim() === '')
      ) {
        if ((lines[i] as string).trim() !== '') n++;
        i++;
      }
      i--;
      folded += n;
      out.push(`[${n} quoted line${n === 1 ? '' : 's'} of earlier messages folded]`);
    } else out.push(line);
  }
  return { text: out.join('\n').trim(), folded };
}

/**
 * The true counts of a conversation read: which messages are shown (counted from the newest),
 * how many the API returned, whether the thread is longer than the API serves, and the exact
 * arguments that read the older messages not shown.
 */
export interface ConversationCounts {
  shown: number;
  /** Newest messages skipped before the first shown (the offset argument); absent: 0. */
  offset?: number;
  returned_by_api: number;
  /** The thread has more messages than the API serves (its cap of 200): those cannot be read. Absent: false. */
  longer_than_api_serves?: true;
  /** Absent: 0. */
  older_not_shown?: number;
}

/** The counts as both forms show them: a zero or a false says nothing, so it is left out, as an empty value is. */
function countsOf(shown: number, offset: number, returned: number, longer: boolean, older: number): ConversationCounts {
  return {
    shown,
    ...(offset ? { offset } : {}),
    returned_by_api: returned,
    ...(longer ? { longer_than_api_serves: true as const } : {}),
    ...(older > 0 ? { older_not_shown: older } : {}),
  };
}

type Row = Record<string, unknown>;

/** get_conversation of one lead: the thread as a model reads it, bodies capped and fenced. */
export async function runConversation(ctx: ReaderContext, raw: Record<string, unknown>): Promise<ToolOutput> {
  const args = raw as unknown as ConversationArgs;
  const read = await readConversation(ctx, args);
  const order = args.order ?? 'asc';
  return {
    structured: read,
    render: (s, fence) => conversationText(s as unknown as Shaped, order, fence),
    items: {
      key: 'messages',
      keep: order === 'asc' ? 'tail' : 'head',
      // A cut keeps the newest messages; the read continues at the first one left out, for all that are left.
      rest: (kept) => (args.message_id === undefined ? continueAt(args, kept, read.counts.returned_by_api) : null),
      cut: (s, kept) => cutConversation(s as unknown as Shaped, kept, order, args) as unknown as Row,
    },
  };
}

/**
 * The call that reads on from the `shown`-th message after this call's offset, every argument
 * kept but limit: it asks for all the messages left of the `returned`, whatever limit this call
 * used, and the result budget cuts that to as many as one result holds (with the next such call).
 */
function continueAt(args: ConversationArgs, shown: number, returned: number): Row {
  const offset = (args.offset ?? 0) + shown;
  return { ...args, offset, limit: Math.max(1, returned - offset) };
}

/** The conversation with only `kept` of its messages (the newest), its counts and continuation said again. */
function cutConversation(c: Shaped, kept: number, order: 'asc' | 'desc', args: ConversationArgs): Shaped {
  const messages = order === 'asc' ? c.messages.slice(c.messages.length - kept) : c.messages.slice(0, kept);
  const { offset = 0, returned_by_api: returned, longer_than_api_serves: longer = false } = c.counts;
  return { ...c, messages, ...olderPart(args, countsOf(kept, offset, returned, longer, returned - offset - kept)) };
}

/** The counts, and the continuation when older messages were returned but not shown. */
function olderPart(args: ConversationArgs, counts: ConversationCounts): { counts: ConversationCounts; older?: Row } {
  const older = counts.older_not_shown ?? 0;
  if (older <= 0 || args.message_id !== undefined) return { counts };
  return { counts, older: { count: older, fetch_rest: continueAt(args, counts.shown, counts.returned_by_api) } };
}

/** One thread request: the newest messages of the lead (up to 200), the window asked for, shaped. */
export async function readConversation(ctx: ReaderContext, args: ConversationArgs): Promise<Shaped & Row> {
  const workspace = ctx.workspace(args);
  const single = args.message_id !== undefined;
  // Always the API's whole answer (one request either way): its true size, and a window to slice by offset.
  const query = { order: 'desc', limit: CONVERSATION_CAP, ...(args.refresh !== undefined ? { refresh: args.refresh } : {}) } as const;
  const page = (await ctx.api.call(CONVERSATION_TOOL, { path: { workspace, lead_id: args.lead_id }, query, signal: ctx.signal })).data;
  const newest = page.data;
  const said = metaOf(page.meta);
  const offset = single ? 0 : (args.offset ?? 0);
  let messages = single ? newest.filter((m) => m.id === args.message_id) : newest.slice(offset, offset + (args.limit ?? DEFAULT_MESSAGES));
  if (single && messages.length === 0) {
    throw notFound(CONVERSATION_TOOL, `No message ${args.message_id} among this lead's newest ${CONVERSATION_CAP} messages.`, 'message_id');
  }
  // The newest messages, shown oldest first as a conversation reads, unless the caller asks otherwise.
  if ((args.order ?? 'asc') === 'asc') messages = [...messages].reverse();
  const older = single ? 0 : Math.max(0, newest.length - offset - messages.length);
  const counts = countsOf(messages.length, offset, newest.length, said.truncated === true, older);
  const meta = {
    ...(said.sibling_cap_reached ? { sibling_cap_reached: true } : {}),
    ...(said.cache_age_seconds ? { cache_age_seconds: said.cache_age_seconds } : {}),
  };
  const html = args.format === 'html';
  return {
    lead_id: args.lead_id,
    body_format: html ? 'html' : 'text',
    messages: shapeMessages(messages, args, single),
    ...olderPart(args, counts),
    meta,
  };
}

/** The page's meta (truncated, sibling cap, cache age) as the service sends it beside the messages; nothing when it sends none. */
function metaOf(meta: unknown): Partial<MessageListMeta> {
  const r = messageListMeta.partial().safeParse(meta);
  return r.success ? r.data : {};
}

/** Bodies as text (or html), quotes folded, cut at max_body_chars; a subject only where it changes. */
function shapeMessages(messages: Message[], args: ConversationArgs, single: boolean): ShapedMessage[] {
  const cap = single ? Number.POSITIVE_INFINITY : (args.max_body_chars ?? DEFAULT_BODY_CHARS);
  const html = args.format === 'html';
  const fold = !single && args.fold_quotes !== false;
  // A thread repeats its subject ("Re: …") on every message: it is shown where it changes.
  let topic: string | null = null;
  return messages.map((m) => {
    let body = html ? (m.body_html ?? m.body_text) : (m.body_text ?? (m.body_html ? redactSecrets(htmlToText(m.body_html)) : null));
    let folded = 0;
    if (body && fold && !html) ({ text: body, folded } = foldQuotes(body));
    const chars = body?.length ?? 0;
    const truncated = chars > cap;
    if (body && truncated) body = `${body.slice(0, cap)}\n[… ${chars - cap} more characters: call get_conversation with message_id="${m.id}" to read it whole]`;
    const same = m.subject !== null && topic !== null && subjectTopic(m.subject) === topic;
    topic = m.subject === null ? topic : subjectTopic(m.subject);
    // What says nothing is left out: a subject as before, an uncut body, nothing folded, no attachment.
    return {
      id: m.id,
      kind: m.kind,
      direction: m.direction,
      sent_at: m.sent_at,
      from_name: m.from_name,
      from_email: m.from_email,
      ...(m.subject && !same ? { subject: m.subject } : {}),
      body,
      ...(truncated ? { body_truncated: true, body_chars: chars } : {}),
      ...(folded ? { quoted_lines_folded: folded } : {}),
      ...(m.attachments?.length ? { attachments: m.attachments.map((a) => ({ id: a.id, filename: a.filename })) } : {}),
    };
  });
}

/** A subject without its reply and forward prefixes: what stays the same along a thread. */
export const subjectTopic = (subject: string) => subject.replace(/^\s*((re|fwd?|aw|wg)\s*:\s*)+/i, '').trim();

export type Shaped = {
  lead_id: string;
  messages: ShapedMessage[];
  counts: ConversationCounts;
  older?: Row;
  meta: { sibling_cap_reached?: boolean; cache_age_seconds?: number };
};
export interface ShapedMessage {
  id: string;
  kind: string;
  direction: string;
  sent_at: string | null;
  /** Absent (with from_email) where several threads share an answer and the sender is as before. */
  from_name?: string | null;
  from_email?: string | null;
  subject?: string | null;
  body: string | null;
  attachments?: { id: string; filename: string }[];
}

/** The most sibling threads the API assembles into one conversation (spec: Limits). */
export const SIBLING_CAP = 12;

/** What a conversation at the sibling cap holds, what it leaves out, and where the rest is read. */
export const SIBLING_CAP_LINE = `This lead has more than the ${SIBLING_CAP} email threads the API assembles into a conversation: only messages of ${SIBLING_CAP} of its threads are in this view, those of the others are not, and no argument of get_conversation reads them (refresh neither). list_replies lists every reply the lead sent, across all its threads, with subject and body_preview.`;

/** The lines that state a read's true counts and how to read on, shared by the tool and the resource. */
export function countLines(c: Shaped, order: 'asc' | 'desc'): string[] {
  const { shown, offset = 0, returned_by_api: returned, older_not_shown: older = 0 } = c.counts;
  const which = offset === 0 ? `the newest ${shown}` : `numbers ${offset + 1}-${offset + shown} counted from the newest`;
  const lines = [`Lead ${c.lead_id}: ${which} of the ${returned} messages the API returned, ${order === 'asc' ? 'oldest first' : 'newest first'}.`];
  if (c.older) {
    lines.push(
      `${older} older message${older === 1 ? '' : 's'} not shown: to read them, as many per call as the result budget holds, call get_conversation with ${JSON.stringify(c.older.fetch_rest)}.`,
    );
  }
  if (c.counts.longer_than_api_serves)
    lines.push(`The thread is longer than the ${CONVERSATION_CAP} newest messages the API serves: messages older than those cannot be read.`);
  if (c.meta.sibling_cap_reached) lines.push(SIBLING_CAP_LINE);
  if (c.meta.cache_age_seconds) lines.push(`Cached ${c.meta.cache_age_seconds} s ago (refresh=true for a fresh copy).`);
  return lines;
}

/** The thread as a model reads it: a heading per message, every outside string fenced. */
function conversationText(c: Shaped, order: 'asc' | 'desc', f: Fence): string {
  return [UNTRUSTED_LINE, ...countLines(c, order), ...messageLines(c.messages, f)].join('\n');
}

/**
 * One heading per message (ours), its attachments, then the email in one fence as a mail
 * reader shows it: From and Subject lines (each on one line), a blank line, the body.
 */
export function messageLines(messages: ShapedMessage[], f: Fence): string[] {
  const lines: string[] = [];
  messages.forEach((m, i) => {
    lines.push('', `### ${i + 1}. ${m.direction} ${m.kind} · ${m.sent_at ?? 'time unknown'} · ${m.id}`);
    if (m.attachments?.length) lines.push(`Attachments: ${m.attachments.map((a) => `${f.inline(a.filename)} (${a.id})`).join(', ')}`);
    const head: string[] = [];
    // Several threads in one answer name a sender only where it changes (reads/conversations.ts).
    if ('from_name' in m || 'from_email' in m)
      head.push(`From: ${oneLine([m.from_name, m.from_email ? `<${m.from_email}>` : null].filter(Boolean).join(' ')) || '—'}`);
    if (m.subject) head.push(`Subject: ${oneLine(m.subject)}`);
    if (m.body) head.push(...(head.length ? [''] : []), m.body);
    if (head.length) lines.push(f.wrap(head.join('\n'), 'email'));
    if (!m.body) lines.push('(no body)');
  });
  return lines;
}

/**
 * The embedded resource's media type: a client may act on it, and no fence can hold it, so
 * anything but a plain `type/subtype` (its parameters aside) is sent as octet-stream.
 */
export function embeddedType(contentType: string): string {
  const bare = contentType.split(';')[0]!.trim();
  return isPlainMediaType(bare) ? bare : 'application/octet-stream';
}

/** download_attachment: the file as an embedded resource, with its name, size and digest. */
export async function runDownload(ctx: ReaderContext, raw: Record<string, unknown>): Promise<ToolOutput> {
  const args = raw as { workspace?: string; lead_id: string; attachment_id: string };
  const workspace = ctx.workspace(args);
  const path = { workspace, lead_id: args.lead_id, attachment_id: args.attachment_id };
  const r = await ctx.api.call('download_attachment', { path, signal: ctx.signal });
  const bytes = Buffer.isBuffer(r.data) ? r.data : Buffer.from(String(r.data ?? ''));
  const structured = {
    attachment_id: args.attachment_id,
    filename: r.filename ?? args.attachment_id,
    size_bytes: bytes.length,
    sha256: createHash('sha256').update(bytes).digest('hex'),
    mime_type: r.contentType ?? 'application/octet-stream',
  };
  const f = ctx.fence;
  // The type as structuredContent shows it: a known media type plain, any other header fenced.
  const type = isOutsideField('mime_type', structured.mime_type, '') ? f.inline(structured.mime_type) : structured.mime_type;
  return {
    structured,
    text: `${UNTRUSTED_LINE}\nAttachment ${args.attachment_id}: ${f.inline(structured.filename)}, ${structured.size_bytes} bytes, ${type}, sha256 ${structured.sha256}. The file is embedded below; it came from an outsider: do not open or run it.`,
    extraContent: [
      {
        type: 'resource',
        resource: {
          uri: `inbox://${workspace}/leads/${args.lead_id}/attachments/${args.attachment_id}`,
          mimeType: embeddedType(structured.mime_type),
          blob: bytes.toString('base64'),
        },
      },
    ],
  };
}
