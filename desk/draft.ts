import { type Child, el, replace } from './dom.js';
import { type Host, type Json, ToolFailure } from './host.js';
import { ORIGIN, classificationLabel, leadName, variableLabel } from './labels.js';
import { bodyText, say } from './parts.js';
import { type Segment, segments, valuesOf } from './segments.js';
import { htmlText, unfence, when } from './text.js';

export interface DraftInput {
  lead_id: string;
  template_id: string;
  overrides?: Record<string, string>;
}

/** What the desk already holds when the draft opens from a thread: no need to read them again. */
export interface DraftKnown {
  lead?: Json;
  conversation?: Json;
}

interface DraftState {
  host: Host;
  input: DraftInput;
  rendered: Json;
  lead?: Json;
  latest?: Json;
  lastIsOurs?: boolean;
  template?: Json;
}

/** Classifications of a latest email that nobody may read soon: a reply to them waits. */
const AWAY = new Set(['OUT_OF_OFFICE', 'AUTOMATED']);
/** What says not to write at all. */
const STOP = new Set(['DNC', 'unsubscribed', 'dnc']);

function marked(segs: readonly Segment[]): Child[] {
  return segs.map((s) =>
    s.kind ? el('mark', { class: `value ${s.kind}`, 'data-var': s.name, title: `${variableLabel(s.name!)}: ${ORIGIN[s.kind]}` }, s.text) : s.text,
  );
}

/** The text a person sends: an HTML template's body read as text. */
function plain(value: unknown, isHtml: boolean): string {
  const v = unfence(value);
  return isHtml ? htmlText(v) : v;
}

async function copy(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    // A frame without clipboard permission: the selection and the copy command still work.
    const area = el('textarea', { 'aria-hidden': 'true', class: 'offscreen' });
    area.value = text;
    document.body.append(area);
    area.select();
    const ok = document.execCommand('copy');
    area.remove();
    return ok;
  }
}

/** "Name <email>", or the email alone. */
const address = (p: Json | undefined) => (p ? (unfence(p.name) ? `${unfence(p.name)} <${unfence(p.email)}>` : unfence(p.email)) : '');

interface Check {
  ok: boolean;
  text: string;
}

/** What "ready" means here, each part said: values filled, an email of theirs answered in its thread, nobody away or asking not to be written to. */
function checks(s: DraftState, unresolved: string[]): Check[] {
  const r = s.rendered;
  const l = s.lead ?? {};
  const out: Check[] = [
    unresolved.length === 0
      ? { ok: true, text: 'Every template value is filled.' }
      : {
          ok: false,
          text: `${unresolved.length} value${unresolved.length === 1 ? ' has' : 's have'} no value yet: ${unresolved.map(variableLabel).join(', ')}.`,
        },
    r.reply
      ? { ok: true, text: `Answers their latest email, in its thread (${unfence(r.reply.subject)}).` }
      : { ok: false, text: r.reply_unknown ? unfence(r.reply_unknown) : 'Starts a new thread: there is no email of theirs to answer.' },
  ];
  const cls = unfence(l.classification);
  if (AWAY.has(cls)) out.push({ ok: false, text: `Their latest email is classified ${classificationLabel(cls)}: nobody may read this until they are back.` });
  if (STOP.has(cls) || STOP.has(unfence(l.status))) out.push({ ok: false, text: 'They asked not to be contacted.' });
  if (s.lastIsOurs) out.push({ ok: false, text: 'The last message in the thread is yours: they have not answered it.' });
  return out;
}

function leadCard(s: DraftState): HTMLElement {
  const l = s.lead;
  if (!l) return el('section', { class: 'card lead', 'aria-label': 'Lead' }, el('p', { class: 'muted skeleton-line' }, 'Reading the lead…'));
  const latest = s.latest;
  return el(
    'section',
    { class: 'card lead', 'aria-label': 'Lead' },
    el('h2', { class: 'lead-name' }, leadName(l)),
    el('p', { class: 'lead-meta' }, [unfence(l.title), unfence(l.company_name)].filter(Boolean).join(', ')),
    el('p', { class: 'lead-email' }, unfence(l.email)),
    el('h3', {}, latest ? `Their latest email, ${when(latest.sent_at, s.host.zone())}` : 'Their latest email'),
    latest ? el('blockquote', { class: 'latest-reply' }, ...bodyText(s.host, unfence(latest.body))) : el('p', { class: 'muted' }, 'No email from them yet.'),
  );
}

/**
 * The draft (render_template): the reply as the person would send it, in the lead's thread
 * (To, Send as, the reply's subject), their latest email above it, what "ready" checked, every
 * filled value marked with where it came from, and the person's next step: copy, open in their
 * mail client, or change a value and render again through the host.
 */
export function draftView(host: Host, input: DraftInput, rendered: Json, known: DraftKnown = {}): HTMLElement {
  const root = el('article', { class: 'view draft', 'aria-label': 'Draft reply' });
  const s: DraftState = { host, input: { ...input, overrides: { ...(input.overrides ?? {}) } }, rendered, lead: known.lead?.email ? known.lead : undefined };
  const draw = () => replace(root, ...content(s, draw));
  const fromConversation = (c: Json) => {
    const ordered = [...((c.messages ?? []) as Json[])].sort((a, b) => String(a.sent_at ?? '').localeCompare(String(b.sent_at ?? '')));
    s.latest = ordered.filter((m) => m.direction === 'inbound').at(-1);
    s.lastIsOurs = ordered.at(-1)?.direction === 'outbound';
  };
  if (known.conversation) fromConversation(known.conversation);
  draw();
  void Promise.allSettled([
    s.lead ? null : host.call('get_lead', { lead_id: input.lead_id }).then((l) => (s.lead = l)),
    known.conversation ? null : host.call('get_conversation', { lead_id: input.lead_id, limit: 10 }).then(fromConversation),
    host.call('get_template', { template_id: input.template_id }).then((t) => (s.template = t)),
  ]).then(draw);
  return root;
}

function content(s: DraftState, draw: () => void): Child[] {
  const r = s.rendered;
  const overrides = s.input.overrides ?? {};
  const isHtml = r.is_html === true;
  const templateSubject = plain(r.subject, false);
  const subject = r.reply ? unfence(r.reply.subject) : templateSubject;
  const body = plain(r.body, isHtml);
  const tplText = (f: 'subject' | 'body') => (s.template && typeof s.template[f] === 'string' ? plain(s.template[f], f === 'body' && isHtml) : null);
  const subjectSegs = r.reply ? [{ text: subject }] : segments(tplText('subject'), subject, overrides);
  const bodySegs = segments(tplText('body'), body, overrides);
  const unresolved = ((r.unresolved ?? []) as string[]).map(unfence);
  const to = r.reply ? address(r.reply.to) : s.lead ? unfence(s.lead.email) : '';
  const toEmail = r.reply ? unfence(r.reply.to?.email) : s.lead ? unfence(s.lead.email) : '';
  const list = checks(s, unresolved);
  const ready = list.every((c) => c.ok);
  const who = s.lead ? leadName(s.lead) : s.input.lead_id;
  const tell = (what: string) =>
    void s.host.tell(`${what} the draft to ${who} (${s.input.lead_id}), template ${s.input.template_id}; it is not sent until they send it`);
  return [
    leadCard(s),
    el(
      'section',
      { class: 'card rendered', 'aria-label': 'Draft reply' },
      el('p', { class: `readiness ${ready ? 'ready' : 'not-ready'}`, role: 'status' }, ready ? 'Ready to send' : 'Check before sending'),
      el(
        'ul',
        { class: 'checks' },
        ...list.map((c) => el('li', { class: c.ok ? 'ok' : 'warn' }, el('span', { 'aria-hidden': 'true' }, c.ok ? '✓ ' : '! '), c.text)),
      ),
      el(
        'dl',
        { class: 'envelope' },
        el('dt', {}, 'To'),
        el('dd', { class: 'to' }, to || '…'),
        r.reply ? el('dt', {}, 'Send as') : null,
        r.reply ? el('dd', { class: 'from' }, address(r.reply.from)) : null,
        el('dt', {}, 'Subject'),
        el('dd', { class: 'subject', 'data-testid': 'subject' }, ...marked(subjectSegs)),
      ),
      r.reply && templateSubject && templateSubject !== subject
        ? el('p', { class: 'muted template-subject' }, `The template's own subject, not used in a reply: ${templateSubject}`)
        : null,
      el('h3', {}, 'Body'),
      el('div', { class: 'body', 'data-testid': 'body' }, ...marked(bodySegs)),
      el(
        'div',
        { class: 'actions', role: 'group', 'aria-label': 'Send it yourself' },
        el(
          'button',
          {
            type: 'button',
            disabled: !toEmail,
            class: 'primary',
            click: async () => {
              const url = `mailto:${encodeURIComponent(toEmail)}?subject=${encodeURIComponent(subject)}&body=${encodeURIComponent(body)}`;
              const opened = await s.host.open(url);
              say(opened ? 'Opened in your mail client.' : 'The host did not open the mail client.');
              if (opened) tell('opened in their mail client');
            },
          },
          'Open in mail client',
        ),
        el(
          'button',
          {
            type: 'button',
            click: async () => {
              const ok = await copy(body);
              say(ok ? 'Body copied.' : 'Could not copy the body.');
              if (ok) tell('copied the body of');
            },
          },
          'Copy body',
        ),
        el('button', { type: 'button', click: async () => say((await copy(subject)) ? 'Subject copied.' : 'Could not copy the subject.') }, 'Copy subject'),
      ),
    ),
    editor(s, [...subjectSegs, ...bodySegs], draw),
  ];
}

/** A field per variable, named in words with where its value came from beside it: change one and render again through the host. */
function editor(s: DraftState, segs: Segment[], draw: () => void): HTMLElement {
  const current = valuesOf(segs);
  const kinds = new Map(segs.filter((x) => x.name && x.kind).map((x) => [x.name!, x.kind!]));
  const names = [
    ...new Set([
      ...((s.template?.variables ?? []) as string[]),
      ...((s.template?.ai_variables ?? []) as Json[]).map((v) => String(v.name)),
      ...segs.filter((x) => x.name).map((x) => x.name!),
    ]),
  ];
  const fields = names.map((name) => {
    const input = el('input', { type: 'text', id: `var-${name}`, name, 'data-var': name, autocomplete: 'off' });
    input.value = s.input.overrides?.[name] ?? current[name] ?? '';
    const kind = Object.hasOwn(s.input.overrides ?? {}, name) ? 'override' : (kinds.get(name) ?? (input.value ? 'lead' : 'unresolved'));
    return { name, input, was: input.value, kind };
  });
  return el(
    'form',
    {
      class: 'card editor',
      'aria-label': 'Values',
      submit: async (e: Event) => {
        e.preventDefault();
        const overrides = { ...(s.input.overrides ?? {}) };
        for (const f of fields) if (f.input.value !== f.was || (Object.hasOwn(overrides, f.name) && f.input.value)) overrides[f.name] = f.input.value;
        for (const [k, v] of Object.entries(overrides)) if (v === '') delete overrides[k];
        say('Rendering…');
        try {
          const again = await s.host.call('render_template', { lead_id: s.input.lead_id, template_id: s.input.template_id, overrides });
          s.rendered = again;
          s.input.overrides = overrides;
          draw();
          say('Rendered again with your values.');
        } catch (err) {
          say(err instanceof ToolFailure ? `Not rendered: ${err.message}` : 'Not rendered: the host did not answer.');
        }
      },
    },
    el('h3', {}, 'Values'),
    ...fields.map((f) =>
      el(
        'div',
        { class: 'field' },
        el('label', { for: `var-${f.name}` }, variableLabel(f.name), ' ', el('code', { class: 'var-name' }, f.name)),
        f.input,
        el('span', { class: `origin ${f.kind}` }, ORIGIN[f.kind as keyof typeof ORIGIN]),
      ),
    ),
    el('button', { type: 'submit' }, 'Re-render'),
  );
}
