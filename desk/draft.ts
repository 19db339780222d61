import { el, replace, type Child } from './dom.js';
import { type Host, type Json, ToolFailure } from './host.js';
import { segments, valuesOf, type Segment } from './segments.js';
import { htmlText, unfence } from './text.js';
import { bodyText, say } from './parts.js';

export interface DraftInput {
  lead_id: string;
  template_id: string;
  overrides?: Record<string, string>;
}

interface DraftState {
  input: DraftInput;
  rendered: Json;
  lead?: Json;
  latest?: Json;
  template?: Json;
}

const KIND_LABEL = { lead: 'from the records: lead, sender, workspace', override: 'your value', unresolved: 'unresolved: no value' } as const;

function marked(segs: readonly Segment[]): Child[] {
  return segs.map((s) => (s.kind ? el('mark', { class: `value ${s.kind}`, 'data-var': s.name, title: `${s.name}: ${KIND_LABEL[s.kind]}` }, s.text) : s.text));
}

/** The text a person sends: an HTML template's body read as text. */
function plain(rendered: Json, field: 'subject' | 'body'): string {
  const v = unfence(rendered[field]);
  return field === 'body' && rendered.is_html ? htmlText(v) : v;
}

function templateText(template: Json | undefined, field: 'subject' | 'body', isHtml: boolean): string | null {
  if (!template || typeof template[field] !== 'string') return null;
  const v = unfence(template[field]);
  return field === 'body' && isHtml ? htmlText(v) : v;
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

function leadCard(s: DraftState & { host: Host }): HTMLElement {
  const l = s.lead;
  if (!l) return el('section', { class: 'card lead', 'aria-label': 'Lead' }, el('p', { class: 'muted' }, 'Loading the lead…'));
  const name = [unfence(l.first_name), unfence(l.last_name)].filter(Boolean).join(' ') || unfence(l.email);
  const latest = s.latest;
  return el(
    'section',
    { class: 'card lead', 'aria-label': 'Lead' },
    el('h2', { class: 'lead-name' }, name),
    el('p', { class: 'lead-meta' }, [unfence(l.title), unfence(l.company_name)].filter(Boolean).join(', ')),
    el('p', { class: 'lead-email' }, unfence(l.email)),
    el('h3', {}, 'Their latest reply'),
    latest ? el('blockquote', { class: 'latest-reply' }, ...bodyText(s.host, unfence(latest.body))) : el('p', { class: 'muted' }, 'No reply from them yet.'),
  );
}

/**
 * The Draft view (render_template): the lead, their latest reply, the rendered subject and
 * body with every filled value marked, and what the person does next: copy, open in their
 * mail client, or change a value and render again through the host.
 */
export function draftView(host: Host, input: DraftInput, rendered: Json): HTMLElement {
  const root = el('article', { class: 'view draft', 'aria-label': 'Draft reply' });
  const s: DraftState & { host: Host } = { input: { ...input, overrides: { ...(input.overrides ?? {}) } }, rendered, host };
  const draw = () => replace(root, ...content(s, draw));
  draw();
  void Promise.allSettled([
    host.call('get_lead', { lead_id: input.lead_id, view: 'full' }).then((l) => (s.lead = l)),
    host.call('get_conversation', { lead_id: input.lead_id, limit: 10 }).then((c) => {
      const inbound = ((c.messages ?? []) as Json[]).filter((m) => m.direction === 'inbound');
      s.latest = inbound[inbound.length - 1];
    }),
    host.call('get_template', { template_id: input.template_id }).then((t) => (s.template = t)),
  ]).then(draw);
  return root;
}

function content(s: DraftState & { host: Host }, draw: () => void): Child[] {
  const r = s.rendered;
  const overrides = s.input.overrides ?? {};
  const isHtml = r.is_html === true;
  const subject = plain(r, 'subject');
  const body = plain(r, 'body');
  const subjectSegs = segments(templateText(s.template, 'subject', false), subject, overrides);
  const bodySegs = segments(templateText(s.template, 'body', isHtml), body, overrides);
  const unresolved = ((r.unresolved ?? []) as string[]).map(unfence);
  const email = s.lead ? unfence(s.lead.email) : '';
  const ready = r.ready_to_send === true;
  return [
    leadCard(s),
    el(
      'section',
      { class: 'card rendered', 'aria-label': 'Rendered draft' },
      el('p', { class: `readiness ${ready ? 'ready' : 'not-ready'}`, role: 'status' }, ready ? 'Ready to send' : `Not ready: ${unresolved.length} unresolved`),
      unresolved.length > 0 ? el('p', { class: 'unresolved-list' }, 'Unresolved: ', unresolved.map((u) => `{{${u}}}`).join(', ')) : null,
      el('h3', {}, 'Subject'),
      el('p', { class: 'subject', 'data-testid': 'subject' }, ...marked(subjectSegs)),
      el('h3', {}, 'Body'),
      el('div', { class: 'body', 'data-testid': 'body' }, ...marked(bodySegs)),
      el(
        'div',
        { class: 'actions', role: 'group', 'aria-label': 'Send it yourself' },
        el('button', { type: 'button', click: async () => say((await copy(subject)) ? 'Subject copied.' : 'Could not copy the subject.') }, 'Copy subject'),
        el('button', { type: 'button', click: async () => say((await copy(body)) ? 'Body copied.' : 'Could not copy the body.') }, 'Copy body'),
        el(
          'button',
          {
            type: 'button',
            disabled: !email,
            click: async () => {
              const url = `mailto:${encodeURIComponent(email)}?subject=${encodeURIComponent(subject)}&body=${encodeURIComponent(body)}`;
              say((await s.host.open(url)) ? 'Opened in your mail client.' : 'The host did not open the mail client.');
            },
          },
          'Open in mail client',
        ),
      ),
    ),
    editor(s, [...subjectSegs, ...bodySegs], draw),
  ];
}

/** A field per variable: change one and render again, as an override, through the host. */
function editor(s: DraftState & { host: Host }, segs: Segment[], draw: () => void): HTMLElement {
  const current = valuesOf(segs);
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
    return { name, input, was: input.value };
  });
  const form = el(
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
          s.rendered = await s.host.call('render_template', { lead_id: s.input.lead_id, template_id: s.input.template_id, overrides });
          s.input.overrides = overrides;
          draw();
          say('Rendered again with your values.');
        } catch (err) {
          say(err instanceof ToolFailure ? `Not rendered: ${err.message}` : 'Not rendered: the host did not answer.');
        }
      },
    },
    el('h3', {}, 'Values'),
    ...fields.map((f) => el('div', { class: 'field' }, el('label', { for: `var-${f.name}` }, f.name), f.input)),
    el('button', { type: 'submit' }, 'Re-render'),
  );
  return form;
}
