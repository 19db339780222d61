import { type LeadRef, readLabel, starLabel, statusControl, toggleRead, toggleStar } from './actions.js';
import { el, replace } from './dom.js';
import { type Host, type Json, ToolFailure } from './host.js';
import { leadName } from './labels.js';
import { bodyText, leadChips, say } from './parts.js';
import { bytes, unfence, when } from './text.js';

/** What the thread hands the draft: the lead and the template the person chose. */
export type DraftOpener = (ref: LeadRef, templateId: string, templateName: string) => Promise<void>;

/**
 * An attachment by name, its size once known, and Download: the file is read through the host
 * (download_attachment) and handed to the host, which asks the person before saving it.
 */
function attachment(host: Host, leadId: string, a: Json): HTMLElement {
  const name = unfence(a.filename);
  const size = el('span', { class: 'size muted' }, typeof a.size_bytes === 'number' ? bytes(a.size_bytes) : '');
  const button = el('button', { type: 'button', class: 'small', 'aria-label': `Download ${name}` }, 'Download');
  button.addEventListener('click', async () => {
    button.disabled = true;
    try {
      const r = await host.callWhole('download_attachment', { lead_id: leadId, attachment_id: a.id });
      if (typeof r.structuredContent.size_bytes === 'number') size.textContent = bytes(r.structuredContent.size_bytes);
      const file = r.content.find((c) => c.type === 'resource')?.resource;
      // Named by its file name, so the host can say what it saves.
      say(
        file && (await host.download({ ...file, uri: `file:///${encodeURIComponent(name)}` }))
          ? `${name}: handed to your host to save.`
          : `${name}: your host did not save it.`,
      );
    } catch (err) {
      say(`${name} did not download: ${err instanceof ToolFailure ? err.message : 'the host did not answer'}.`);
    } finally {
      button.disabled = false;
    }
  });
  return el('li', { class: 'attachment' }, el('span', { class: 'filename' }, name), ' ', size, ' ', button);
}

function message(host: Host, leadId: string, m: Json): HTMLElement {
  const inbound = m.direction === 'inbound';
  const from = unfence(m.from_name) || unfence(m.from_email);
  const date = when(m.sent_at, host.zone());
  return el(
    'li',
    { class: `message ${inbound ? 'inbound' : 'outbound'}`, 'aria-label': `${inbound ? 'Received from' : 'Sent by'} ${from}, ${date}` },
    el(
      'header',
      {},
      el('span', { class: 'direction' }, inbound ? 'Received' : 'Sent'),
      el('span', { class: 'from' }, from),
      m.from_email && m.from_name ? el('span', { class: 'email' }, unfence(m.from_email)) : null,
      el('time', { class: 'date', datetime: String(m.sent_at ?? '') }, date),
    ),
    m.subject ? el('p', { class: 'msg-subject' }, unfence(m.subject)) : null,
    el('div', { class: 'body' }, ...bodyText(host, unfence(m.body))),
    Array.isArray(m.attachments) && m.attachments.length > 0
      ? el('ul', { class: 'attachments', 'aria-label': 'Attachments' }, ...(m.attachments as Json[]).map((a) => attachment(host, leadId, a)))
      : null,
  );
}

/** The lead the thread is with, and the next steps: reply (a template, rendered through the host), status, read, star. */
function header(host: Host, ref: LeadRef, pick: { templates: Json[] | null; chosen: string }, draft: DraftOpener): HTMLElement {
  const l = ref.lead;
  const picker = el(
    'select',
    { 'aria-label': 'Template for the reply', class: 'template-select' },
    el('option', { value: '' }, pick.templates ? 'Choose a template…' : 'Reading templates…'),
  );
  for (const t of pick.templates ?? []) picker.append(el('option', { value: String(t.id) }, unfence(t.name)));
  picker.value = pick.chosen;
  const go = el('button', { type: 'button', class: 'primary draft-reply', disabled: !picker.value }, 'Draft reply');
  picker.addEventListener('change', () => {
    pick.chosen = picker.value;
    go.disabled = !picker.value;
  });
  go.addEventListener('click', async () => {
    go.disabled = true;
    await draft(ref, picker.value, picker.selectedOptions[0]?.textContent ?? picker.value);
    go.disabled = !picker.value;
  });
  const about = [unfence(l.title), unfence(l.company_name)].filter(Boolean).join(', ');
  return el(
    'section',
    { class: 'card lead-header', 'aria-label': 'Lead' },
    el('h2', { class: 'lead-name' }, ref.who),
    about ? el('p', { class: 'lead-meta' }, about) : null,
    l.email && ref.who !== unfence(l.email) ? el('p', { class: 'lead-email' }, unfence(l.email)) : null,
    el(
      'p',
      { class: 'chips' },
      ...leadChips(l),
      l.unread ? el('span', { class: 'flag unread' }, 'Unread') : null,
      l.priority ? el('span', { class: 'flag star' }, '★ Starred') : null,
    ),
    el('div', { class: 'next-steps reply', role: 'group', 'aria-label': 'Reply' }, picker, go),
    el(
      'div',
      { class: 'next-steps', role: 'group', 'aria-label': 'Triage' },
      statusControl(host, ref),
      el('button', { type: 'button', class: 'small read', click: () => void toggleRead(host, ref) }, readLabel(l)),
      el('button', { type: 'button', class: 'small star-toggle', click: () => void toggleStar(host, ref) }, starLabel(l)),
    ),
  );
}

/**
 * The thread (get_conversation): who the lead is and what to do next above the messages, oldest
 * to newest, received and sent apart, in the person's zone. `lead` is what the desk already
 * knows of the lead (a board row); the rest is read through the host.
 */
export function threadView(host: Host, conversation: Json, known: { lead: Json; who?: string }, draft: DraftOpener): HTMLElement {
  const leadId = String(conversation.lead_id ?? known.lead.id);
  const lead = known.lead;
  const root = el('article', { class: 'view thread', 'aria-label': 'Conversation' });
  const top = el('div', { class: 'thread-top' });
  const pick: { templates: Json[] | null; chosen: string } = { templates: null, chosen: '' };
  // The name the person clicked stays until the lead's own record names them.
  const named = () => (lead.first_name || lead.last_name || lead.email ? leadName(lead) : (known.who ?? leadName(lead)));
  const ref: LeadRef = { lead, who: named(), changed: () => drawTop() };
  const drawTop = () => {
    ref.who = named();
    replace(top, header(host, ref, pick, draft));
  };
  const messages = [...((conversation.messages ?? []) as Json[])].sort((a, b) => String(a.sent_at ?? '').localeCompare(String(b.sent_at ?? '')));
  drawTop();
  replace(
    root,
    top,
    el('h3', {}, `Conversation (${messages.length} message${messages.length === 1 ? '' : 's'})`),
    el('ol', { class: 'messages' }, ...messages.map((m) => message(host, leadId, m))),
  );
  void Promise.allSettled([
    lead.email
      ? null
      : host
          .call('get_lead', { lead_id: leadId })
          .then((full) => Object.assign(lead, full, { unread: full.unread ?? false, priority: full.priority ?? false })),
    host.call('list_templates', {}).then((r) => {
      pick.templates = (r.data ?? []) as Json[];
    }),
  ]).then(drawTop);
  return root;
}
