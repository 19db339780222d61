import { type LeadRef, readLabel, starLabel, statusControl, toggleRead, toggleStar } from './actions.js';
import { el, replace } from './dom.js';
import { type Host, type Json, ToolFailure } from './host.js';
import { leadName } from './labels.js';
import { leadChips, say } from './parts.js';
import { unfence, when } from './text.js';

/** What the board asks for when it reads a page itself: enough to name every row without a second read. */
export const BOARD_FIELDS = [
  'first_name',
  'last_name',
  'email',
  'company_name',
  'status',
  'classification',
  'state',
  'unread',
  'priority',
  'last_message_at',
  'body_preview',
];

/** The keys the board answers, as the view lists them. */
const KEYS = 'Keys: j/k or ↓/↑ move · Enter opens · r read/unread · s star';

interface Row {
  lead: Json;
  who: string;
  company: string;
  what: string;
}

/** A compact row's latest_reply reads "Name (Company): opening…"; a row read with fields has the parts. */
function rowOf(lead: Json): Row {
  const text = unfence(lead.latest_reply);
  const at = text.indexOf(': ');
  const company = unfence(lead.company_name);
  if (lead.first_name || lead.last_name || lead.email || !(at > 0 && at < 120))
    return { lead, who: leadName(lead), company, what: unfence(lead.body_preview) || (at > 0 ? text.slice(at + 2) : text) };
  const named = /^(.*?) \(([^()]*)\)$/.exec(text.slice(0, at));
  return { lead, who: named ? named[1]! : text.slice(0, at), company: named ? named[2]! : company, what: text.slice(at + 2) };
}

/** A row the board cannot name from its compact form (no name, so no "Name:" in latest_reply). */
const unnamed = (r: Row) => !r.lead.first_name && !r.lead.email && r.who === String(r.lead.id);

interface Page {
  rows: Row[];
  cursor?: string;
  next?: string;
}

/**
 * The inbox (list_leads): one compact line a lead, unread and starred at a glance. The focused
 * row carries the actions (open, read, star, status), once; keys move and act; pages come through
 * the host with the cursor, and Back from a thread returns to the same page and row.
 */
export function boardView(host: Host, result: Json, args: Json, open: (ref: LeadRef) => void): HTMLElement {
  const base: Json = { ...args };
  delete base.cursor;
  const pages: Page[] = [{ rows: ((result.data ?? []) as Json[]).map(rowOf), cursor: args.cursor, next: result.has_more ? result.next_cursor : undefined }];
  let at = 0;
  let selected = 0;
  const root = el('article', { class: 'view board', 'aria-label': 'Inbox' });
  const list = el('ul', { class: 'rows', 'aria-label': 'Leads, newest first' });
  const count = el('p', { class: 'count muted' });
  const pager = el('nav', { class: 'pager', 'aria-label': 'Pages' });

  const refOf = (r: Row): LeadRef => ({ lead: r.lead, who: r.who, changed: () => draw(false) });

  function item(r: Row, i: number): HTMLLIElement {
    const l = r.lead;
    const sel = i === selected;
    const li = el(
      'li',
      {
        class: `row${l.unread ? ' unread' : ''}${sel ? ' selected' : ''}`,
        'data-lead': String(l.id),
        tabindex: sel ? 0 : -1,
        'aria-current': sel ? 'true' : undefined,
        'aria-label': `${r.who}${l.unread ? ', unread' : ''}${l.priority ? ', starred' : ''}`,
      },
      el(
        'div',
        { class: 'line1' },
        el('span', { class: 'dot', 'aria-hidden': 'true' }, l.unread ? '●' : ''),
        el('span', { class: 'name' }, r.who),
        r.company ? el('span', { class: 'company' }, r.company) : null,
        l.priority ? el('span', { class: 'star', title: 'Starred', 'aria-hidden': 'true' }, '★') : null,
        el(
          'time',
          { class: 'date', datetime: String(l.last_message_at ?? ''), title: when(l.last_message_at, host.zone()) },
          when(l.last_message_at, host.zone(), 'row'),
        ),
      ),
      el('div', { class: 'line2' }, ...leadChips(l), el('span', { class: 'preview' }, r.what)),
      sel ? actions(r) : null,
    );
    li.addEventListener('click', (e) => {
      if ((e.target as Element).closest('button, select, option')) return;
      if (selected === i) open(refOf(r));
      else select(i, true);
    });
    li.addEventListener('focus', () => {
      if (selected !== i) select(i, false);
    });
    return li;
  }

  function actions(r: Row): HTMLElement {
    const ref = refOf(r);
    return el(
      'div',
      { class: 'row-actions', role: 'group', 'aria-label': `Actions for ${r.who}` },
      el('button', { type: 'button', class: 'small primary', click: () => open(ref) }, 'Open'),
      el('button', { type: 'button', class: 'small read', click: () => void toggleRead(host, ref) }, readLabel(r.lead)),
      el('button', { type: 'button', class: 'small star-toggle', click: () => void toggleStar(host, ref) }, starLabel(r.lead)),
      statusControl(host, ref),
    );
  }

  function select(i: number, focus: boolean): void {
    selected = i;
    draw(focus);
  }

  function draw(focus: boolean): void {
    const page = pages[at]!;
    replace(list, ...page.rows.map(item));
    count.textContent = `${page.rows.length} lead${page.rows.length === 1 ? '' : 's'} · page ${at + 1}${page.next ? ', more after' : ''}`;
    replace(
      pager,
      at > 0 ? el('button', { type: 'button', class: 'small prev', click: () => go(at - 1) }, '← Newer') : null,
      page.next ? el('button', { type: 'button', class: 'small next', click: () => go(at + 1) }, 'Next page →') : null,
    );
    if (focus) list.querySelector<HTMLElement>('li.selected')?.focus({ preventScroll: false });
  }

  async function go(to: number): Promise<void> {
    if (!pages[to]) {
      const cursor = pages[to - 1]?.next;
      if (!cursor) return;
      say('Reading the next page…');
      try {
        const r = await host.call('list_leads', { ...base, cursor, fields: BOARD_FIELDS });
        pages[to] = { rows: ((r.data ?? []) as Json[]).map(rowOf), cursor, next: r.has_more ? r.next_cursor : undefined };
      } catch (err) {
        say(`The next page did not come: ${err instanceof ToolFailure ? err.message : 'the host did not answer'}.`);
        return;
      }
      say('');
    }
    at = to;
    selected = 0;
    draw(true);
    void host.tell(`is looking at page ${to + 1} of the inbox (${pages[to]!.rows.length} leads)`);
  }

  list.addEventListener('keydown', (e) => {
    if (e.ctrlKey || e.metaKey || e.altKey || (e.target as Element).closest('select, input, textarea')) return;
    const rows = pages[at]!.rows;
    const r = rows[selected];
    const k = e.key;
    if (k === 'j' || k === 'ArrowDown') select(Math.min(rows.length - 1, selected + 1), true);
    else if (k === 'k' || k === 'ArrowUp') select(Math.max(0, selected - 1), true);
    else if (r && (k === 'Enter' || k === 'o') && !(e.target as Element).closest('button')) open(refOf(r));
    else if (r && k === 'r') void toggleRead(host, refOf(r));
    else if (r && k === 's') void toggleStar(host, refOf(r));
    else return;
    e.preventDefault();
  });

  // Rows with no name in their compact form: one read of the same page with fields names them (by email).
  const first = pages[0]!;
  if (first.rows.some(unnamed)) {
    void host
      .call('list_leads', { ...args, fields: BOARD_FIELDS })
      .then((r) => {
        const byId = new Map(((r.data ?? []) as Json[]).map((l) => [String(l.id), l]));
        first.rows = first.rows.map((row) => {
          const full = unnamed(row) ? byId.get(String(row.lead.id)) : undefined;
          return full ? rowOf({ ...row.lead, ...pick(full) }) : row;
        });
        if (at === 0) draw(false);
      })
      .catch(() => undefined);
  }

  replace(
    root,
    el('h2', {}, 'Inbox'),
    count,
    first.rows.length === 0 ? el('p', { class: 'empty' }, 'No lead matches: nobody to answer here.') : null,
    list,
    pager,
    el('p', { class: 'keys muted' }, KEYS),
  );
  draw(false);
  return root;
}

/** The naming fields of a fuller read, laid over a compact row. */
function pick(l: Json): Json {
  return { first_name: l.first_name, last_name: l.last_name, email: l.email, company_name: l.company_name, body_preview: l.body_preview };
}
