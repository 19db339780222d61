import { unfence } from '../desk/fence.js';
import { htmlToText } from '../src/api/text.js';
import { ALL_TOOLS } from '../tools/index.js';

/**
 * What the demo shows a person besides the model's reads: why a session lists fewer tools than
 * the server has, and a rendered draft as the person would send it (the reply desk's reading:
 * the fences a model needs taken off, the reply's own subject and sender).
 */

/** "43 of the 46 tools", and which are hidden and why: the key's scopes, --read-only. */
export function toolsListed(listed: readonly string[], key: string, readOnly: boolean): string {
  const shown = new Set(listed);
  const hidden = ALL_TOOLS.filter((t) => !shown.has(t.name));
  const head = `${listed.length} of the ${ALL_TOOLS.length} tools`;
  if (hidden.length === 0) return `${head}: the key may use every one`;
  const writes = readOnly ? hidden.filter((t) => t.endpoint.write) : [];
  const byScope = new Map<string, string[]>();
  for (const t of hidden.filter((x) => !writes.includes(x)))
    byScope.set(t.endpoint.scope ?? 'none', [...(byScope.get(t.endpoint.scope ?? 'none') ?? []), t.name]);
  const why = [
    ...(writes.length > 0 ? [`--read-only hides the ${writes.length} write tools`] : []),
    ...[...byScope].map(
      ([scope, names]) =>
        `the ${key} key lacks the scope ${scope} (the admin key has it), which hides ${names.length === 1 ? 'the tool' : `the ${names.length} tools`} ${names.join(', ')}`,
    ),
  ];
  return `${head}: ${why.join('; ')}`;
}

type Json = Record<string, unknown>;
type Person = { email?: string; name?: string };

const address = (p: Person | undefined) => (p?.email ? (p.name ? `${unfence(p.name)} <${unfence(p.email)}>` : unfence(p.email)) : '');

/**
 * render_template's structuredContent as the email a person sends: To and From of the lead's
 * thread and the reply's subject when the lead wrote in (else the template's subject), the
 * body as text; and what "ready" rests on, with no value left unsaid.
 */
export function draftAsSent(rendered: unknown): { status: string; email: string } {
  const r = (rendered ?? {}) as Json;
  const reply = r.reply as { subject?: string; to?: Person; from?: Person } | undefined;
  const unresolved = (r.unresolved as string[] | undefined) ?? [];
  const body = unfence(r.body);
  const lines = [
    ...(reply ? [`From: ${address(reply.from)}`, `To: ${address(reply.to)}`] : []),
    `Subject: ${reply?.subject ? unfence(reply.subject) : unfence(r.subject)}`,
    '',
    r.is_html === true ? htmlToText(body) : body,
  ];
  const values = unresolved.length === 0 ? 'every template value filled' : `no value yet for ${unresolved.join(', ')}`;
  const thread = reply ? "a reply in the lead's thread" : `a new thread: ${r.reply_unknown ? unfence(r.reply_unknown) : 'the lead never wrote in'}`;
  return { status: `ready to send: ${r.ready_to_send === true ? 'yes' : 'no'}; ${values}; ${thread}`, email: lines.join('\n') };
}
