import { el } from './dom.js';
import { type Host, type Json, ToolFailure } from './host.js';
import { bodyText, say } from './parts.js';
import { bytes, unfence, when } from './text.js';

function attachment(host: Host, leadId: string, a: Json): HTMLElement {
  const size = el('span', { class: 'size' });
  if (typeof a.size_bytes === 'number') size.textContent = bytes(a.size_bytes);
  const name = unfence(a.filename);
  return el(
    'li',
    { class: 'attachment' },
    el('span', { class: 'filename' }, name),
    ' ',
    size,
    typeof a.size_bytes === 'number'
      ? null
      : el(
          'button',
          {
            type: 'button',
            class: 'small',
            'aria-label': `Size of ${name}`,
            // v1 lists an attachment by name only: its size costs a download, so only on request.
            click: async (e: Event) => {
              const b = e.currentTarget as HTMLButtonElement;
              b.disabled = true;
              try {
                const d = await host.call('download_attachment', { lead_id: leadId, attachment_id: a.id });
                size.textContent = bytes(Number(d.size_bytes));
                b.remove();
              } catch (err) {
                b.disabled = false;
                say(err instanceof ToolFailure ? `No size: ${err.message}` : 'No size: the host did not answer.');
              }
            },
          },
          'Size',
        ),
  );
}

/** The Thread view (get_conversation): oldest to newest, inbound and outbound told apart, in the person's zone. */
export function threadView(host: Host, result: Json): HTMLElement {
  const zone = host.zone();
  const messages = [...((result.messages ?? []) as Json[])].sort((a, b) => String(a.sent_at ?? '').localeCompare(String(b.sent_at ?? '')));
  return el(
    'article',
    { class: 'view thread', 'aria-label': 'Conversation' },
    el('h2', {}, `Conversation (${messages.length} message${messages.length === 1 ? '' : 's'})`),
    el(
      'ol',
      { class: 'messages' },
      ...messages.map((m) => {
        const inbound = m.direction === 'inbound';
        const from = unfence(m.from_name) || unfence(m.from_email);
        const date = when(m.sent_at, zone);
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
            ? el(
                'ul',
                { class: 'attachments', 'aria-label': 'Attachments' },
                ...(m.attachments as Json[]).map((a) => attachment(host, String(result.lead_id), a)),
              )
            : null,
        );
      }),
    ),
  );
}
