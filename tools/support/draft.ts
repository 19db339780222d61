import { ApiError } from '../../src/client/errors.js';
import { ToolError, type ToolContext, type Fence, UNTRUSTED_LINE, UNTRUSTED_MARK, type ToolOutput } from '../../src/mcp/tool-kit.js';
import { runPlain } from './project.js';
import { type Reply, readReply } from './reply-to.js';

type Row = Record<string, unknown>;

/**
 * What a draft says of itself, in both forms; the fence and the two lists of values say the
 * rest (the server instructions say what fenced text is, the draft included).
 */
const DRAFT_NOTE = 'For a person to review and send: this server sends nothing.';

/**
 * render_template's answer as a draft a person can send: subject and body each one clean
 * block, one fence around the whole rendered text (never fences inside it, whatever came
 * from where), and which values the API filled (from the lead, its sender and the workspace:
 * sender_first_name is the sender's, quarter the date's) and which came from the overrides.
 */
export async function runDraft(ctx: ToolContext, args: Row): Promise<ToolOutput> {
  const overrides = Object.keys((args.overrides ?? {}) as Record<string, string>);
  const r = (await runPlain(ctx, args).catch((err: unknown) => aiRefusal(ctx, args, err))).structured;
  const resolved = Array.isArray(r.resolved) ? r.resolved.filter((v): v is string => typeof v === 'string') : [];
  const block = (v: unknown) => (typeof v === 'string' && v !== '' ? ctx.fence.inline(v, { lines: true }) : v);
  const subject = block(r.subject);
  const body = block(r.body);
  // resolved is split into the two lists below: saying it a third time costs bytes and tells nothing.
  const { resolved: _, ...rest } = r;
  // Sent as it stands, the template's subject starts a new thread: reply says how to answer in the lead's.
  const replied = await readReply(ctx, args);
  const reply = 'reply' in replied ? fencedReply(replied.reply, block) : undefined;
  const structured: Row = {
    untrusted: UNTRUSTED_MARK,
    ...rest,
    subject,
    body,
    ...(reply ? { reply } : {}),
    ...('reply_unknown' in replied ? { reply_unknown: replied.reply_unknown } : {}),
    values_from_api: resolved.filter((n) => !overrides.includes(n)),
    values_from_overrides: resolved.filter((n) => overrides.includes(n)),
    draft_note: DRAFT_NOTE,
  };
  // The blocks are fenced already: the result shaping must not fence them again.
  const own = [subject, body, reply?.subject, reply?.to.email, reply?.to.name, reply?.from.email].filter((v): v is string => typeof v === 'string');
  return { structured, own, render: (s, fence) => draftText(s, fence) };
}

/** The reply with what an outsider wrote fenced: the subject of their email (as the draft's subject is), their name, and addresses (as everywhere). */
function fencedReply(r: Reply, block: (v: unknown) => unknown): Reply {
  const fenced = (v: string) => block(v) as string;
  return {
    ...r,
    subject: fenced(r.subject),
    to: { email: fenced(r.to.email), ...(r.to.name ? { name: fenced(r.to.name) } : {}) },
    from: { ...r.from, email: fenced(r.from.email) },
  };
}

/**
 * The API refuses resolve_ai_variables=true (v1): the refusal names the template's AI variables
 * and the overrides that fill them, read from the template, so the next call can be the right one.
 * Any other failure, or a template that cannot be read, is passed on as it came.
 */
async function aiRefusal(ctx: ToolContext, args: Row, err: unknown): Promise<never> {
  if (!(err instanceof ApiError) || err.code !== 'unprocessable' || args.resolve_ai_variables !== true) throw err;
  let names: string[];
  try {
    const path = { workspace: ctx.workspace(args as { workspace?: string }), template_id: String(args.template_id) };
    const t = (await ctx.api.call('get_template', { path, signal: ctx.signal })).data;
    names = (t.ai_variables ?? []).map((v) => v.name).filter((n): n is string => typeof n === 'string');
  } catch {
    throw err;
  }
  const { resolve_ai_variables: _, ...rest } = args;
  const given = (args.overrides ?? {}) as Record<string, string>;
  const overrides = Object.fromEntries(names.map((n) => [n, given[n] ?? `<your text for ${n}>`]));
  const again = JSON.stringify({ ...rest, overrides: { ...given, ...overrides } });
  const what = names.length
    ? `Template ${String(args.template_id)} has ${names.length} AI variable${names.length === 1 ? '' : 's'}: ${names.join(', ')}. Write a value for each yourself and pass it in overrides, by name.`
    : `Template ${String(args.template_id)} has no AI variables: nothing is left for the service to write.`;
  throw new ToolError('unprocessable', ctx.endpoint.name, `resolve_ai_variables=true is refused: the API writes no AI variable in v1. ${what}`, {
    status: err.status,
    param: 'resolve_ai_variables',
    next_step: `Call render_template without resolve_ai_variables: ${names.length ? again : JSON.stringify(rest)}.`,
  });
}

/** The text form: the same facts and the same two blocks, labelled. */
function draftText(s: Row, fence: Fence): string {
  const names = (v: unknown) => (Array.isArray(v) && v.length ? v.join(', ') : 'none');
  const block = (v: unknown, what: string) => {
    // An empty one is left out, as structuredContent leaves it out.
    if (typeof v !== 'string' || v === '') return [];
    // The block as structuredContent carries it, on lines of its own, the fence's label naming it.
    const inner = v.slice(`<${fence.tag}>`.length, -`</${fence.tag}>`.length);
    return [`<${fence.tag} source="draft ${what}">\n${inner}\n</${fence.tag}>`];
  };
  return [
    UNTRUSTED_LINE,
    DRAFT_NOTE,
    `template_id=${s.template_id} lead_id=${s.lead_id} is_html=${s.is_html} ready_to_send=${s.ready_to_send}`,
    // An empty list is left out, as structuredContent leaves it out.
    ['values_from_api', 'values_from_overrides', 'unresolved']
      .filter((k) => {
        const v = s[k];
        return Array.isArray(v) && v.length > 0;
      })
      .map((k) => `${k}: ${names(s[k])}`)
      .join('; '),
    ...block(s.subject, 'subject'),
    ...block(s.body, 'body'),
    ...replyLines(s, block),
  ].join('\n');
}

/** The reply in words, its subject a block as the draft's subject is: whom it answers, from whom it goes, as what. */
function replyLines(s: Row, block: (v: unknown, what: string) => string[]): string[] {
  if (typeof s.reply_unknown === 'string') return [`reply_unknown: ${s.reply_unknown}`];
  const r = s.reply as Reply | undefined;
  if (!r) return [];
  const person = (p: { email: string; name?: string }) => `${p.email}${p.name ? ` (${p.name})` : ''}`;
  return [
    `reply: send it as a reply in the lead's thread, not with the template's subject: message_id=${r.message_id} to=${person(r.to)} from=${person(r.from)}, subject:`,
    ...block(r.subject, 'reply subject'),
  ];
}
