import { el, replace } from './dom.js';
import { type Host, type Json, ToolFailure } from './host.js';
import { chip, say } from './parts.js';
import { STATUSES } from './statuses.js';
import { unfence, when } from './text.js';

/** The compact row's latest_reply reads "Name (Company): opening…": who, then what they said. */
function whoAndWhat(row: Json): { who: string; what: string } {
  const text = unfence(row.latest_reply);
  const at = text.indexOf(': ');
  if (at > 0 && at < 120) return { who: text.slice(0, at), what: text.slice(at + 2) };
  const name = [unfence(row.first_name), unfence(row.last_name)].filter(Boolean).join(' ');
  return { who: name || unfence(row.email) || String(row.id), what: text || unfence(row.body_preview) };
}

/** Run a write through the host; a refusal or a declined confirmation is said, never thrown. */
async function write(host: Host, name: string, args: Json, done: string): Promise<Json | null> {
  try {
    const r = await host.call(name, args);
    say(done);
    return r;
  } catch (err) {
    if (err instanceof ToolFailure && err.code === 'declined') say('Nothing changed: the change was declined.');
    else say(err instanceof ToolFailure ? `Not changed: ${err.message}` : 'Not changed: the host did not answer.');
    return null;
  }
}

function row(host: Host, lead: Json, open: (id: string, who: string) => void): HTMLTableRowElement {
  const { who, what } = whoAndWhat(lead);
  const id = String(lead.id);
  const statusCell = el('td', { class: 'status' });
  const flagsCell = el('td', { class: 'flags' });
  const select = el('select', { 'aria-label': `New status for ${who}` }, ...STATUSES.map((s) => el('option', { value: s }, s.replace(/_/g, ' '))));
  const readButton = el('button', { type: 'button', class: 'small' });
  const starButton = el('button', { type: 'button', class: 'small' });
  const draw = () => {
    replace(statusCell, chip('status', lead.status), chip('state', lead.state && lead.state !== 'active' ? lead.state : null));
    replace(
      flagsCell,
      lead.unread ? el('span', { class: 'flag unread' }, 'Unread') : null,
      lead.priority ? el('span', { class: 'flag star', title: 'Starred' }, '★') : null,
    );
    select.value = STATUSES.includes(lead.status) ? lead.status : 'untagged';
    readButton.textContent = lead.unread ? 'Mark read' : 'Mark unread';
    readButton.setAttribute('aria-label', `${lead.unread ? 'Mark read' : 'Mark unread'}: ${who}`);
    starButton.textContent = lead.priority ? 'Unstar' : 'Star';
    starButton.setAttribute('aria-label', `${lead.priority ? 'Unstar' : 'Star'}: ${who}`);
  };
  readButton.addEventListener('click', async () => {
    const r = await write(host, lead.unread ? 'mark_read' : 'mark_unread', { lead_id: id }, `${who}: marked ${lead.unread ? 'read' : 'unread'}.`);
    if (r) lead.unread = r.unread ?? !lead.unread;
    draw();
  });
  starButton.addEventListener('click', async () => {
    const r = await write(host, 'set_priority', { lead_ids: [id], priority: !lead.priority }, `${who}: ${lead.priority ? 'unstarred' : 'starred'}.`);
    if (r) lead.priority = !lead.priority;
    draw();
  });
  const apply = el(
    'button',
    {
      type: 'button',
      class: 'small',
      'aria-label': `Set status: ${who}`,
      click: async () => {
        const status = select.value;
        const r = await write(host, 'set_status', { lead_id: id, status }, `${who}: status set to ${status.replace(/_/g, ' ')}.`);
        if (r) Object.assign(lead, { status: r.status ?? status, state: r.state ?? lead.state });
        draw();
      },
    },
    'Set',
  );
  draw();
  const tr = el(
    'tr',
    { tabindex: 0, 'data-lead': id, 'aria-label': `${who}: open the conversation` },
    el('td', { class: 'who' }, el('span', { class: 'name' }, who), el('span', { class: 'preview' }, what)),
    statusCell,
    el('td', { class: 'classification' }, chip('classification', lead.classification)),
    flagsCell,
    el('td', { class: 'date' }, when(lead.last_message_at, host.zone())),
    el('td', { class: 'row-actions' }, select, apply, readButton, starButton),
  );
  // A click on the row (not on its controls) or Enter on the focused row opens the thread.
  tr.addEventListener('click', (e) => {
    if (!(e.target as Element).closest('button, select, option')) open(id, who);
  });
  tr.addEventListener('keydown', (e) => {
    if (e.key === 'Enter' && e.target === tr) open(id, who);
  });
  return tr;
}

/** The Triage board (list_leads): the page as a table; each row's actions call the tools through the host. */
export function boardView(host: Host, result: Json, open: (id: string, who: string) => void): HTMLElement {
  const leads = (result.data ?? []) as Json[];
  return el(
    'article',
    { class: 'view board', 'aria-label': 'Triage board' },
    el('h2', {}, `Inbox (${leads.length} lead${leads.length === 1 ? '' : 's'}${result.has_more ? ', more on the next page' : ''})`),
    el(
      'table',
      {},
      el('caption', { class: 'offscreen' }, 'Leads, newest first. Enter or a click on a row opens its conversation.'),
      el('thead', {}, el('tr', {}, ...['Lead', 'Status', 'Classification', 'Flags', 'Last message', 'Actions'].map((h) => el('th', { scope: 'col' }, h)))),
      el('tbody', {}, ...leads.map((l) => row(host, l, open))),
    ),
  );
}
