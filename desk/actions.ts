import { el, replace } from './dom.js';
import { type Host, type Json, ToolFailure } from './host.js';
import { statusLabel } from './labels.js';
import { say } from './parts.js';
import { STATUSES } from './statuses.js';
import { unfence } from './fence.js';

/** A lead as the desk holds it while the person works on it: the fields its actions change. */
export interface LeadRef {
  lead: Json;
  /** How the person names the lead (name, else email). */
  who: string;
  /** Draw again after a change (or a change that did not happen). */
  changed: () => void;
}

/**
 * Run a write through the host. The server's confirmation rules apply as for an agent; a
 * refusal or a declined confirmation is said to the person and to the model, never thrown.
 */
async function write(host: Host, ref: LeadRef, name: string, args: Json, did: (who: string) => string): Promise<Json | null> {
  const tag = `${ref.who} (${ref.lead.id})`;
  try {
    const r = await host.call(name, args);
    const line = did(ref.who);
    say(`${line.charAt(0).toUpperCase()}${line.slice(1)}.`);
    void host.tell(did(tag));
    return r;
  } catch (err) {
    const declined = err instanceof ToolFailure && err.code === 'declined';
    const why = declined ? 'the change was declined' : err instanceof ToolFailure ? err.message : 'the host did not answer';
    say(`Nothing changed: ${why}.`);
    void host.tell(`tried to ${name.replace(/_/g, ' ')} for ${tag}; nothing changed: ${why}`);
    return null;
  }
}

export async function toggleRead(host: Host, ref: LeadRef): Promise<void> {
  const read = Boolean(ref.lead.unread);
  const r = await write(host, ref, read ? 'mark_read' : 'mark_unread', { lead_id: ref.lead.id }, (w) => `marked ${w} ${read ? 'read' : 'unread'}`);
  if (r) ref.lead.unread = typeof r.unread === 'boolean' ? r.unread : !read;
  ref.changed();
}

export async function toggleStar(host: Host, ref: LeadRef): Promise<void> {
  const star = !ref.lead.priority;
  const r = await write(host, ref, 'set_priority', { lead_ids: [ref.lead.id], priority: star }, (w) => `${star ? 'starred' : 'unstarred'} ${w}`);
  if (r) ref.lead.priority = star;
  ref.changed();
}

export const readLabel = (lead: Json) => (lead.unread ? 'Mark read' : 'Mark unread');
export const starLabel = (lead: Json) => (lead.priority ? 'Unstar' : 'Star');

/**
 * The status control: it shows the lead's status, whatever it is (a value set_status does not
 * take shows as itself), and Set stays disabled until the person picks another. A change the
 * server declines puts the control back on the status the lead still has, and says so.
 */
/** Leads whose last status change did not happen: their control, however often drawn, shows it until the next choice. */
const reverted = new WeakSet<Json>();

export function statusControl(host: Host, ref: LeadRef): HTMLElement {
  const current = () => unfence(ref.lead.status);
  const select = el('select', { 'aria-label': `Status of ${ref.who}`, class: 'status-select' });
  const set = el('button', { type: 'button', class: 'small set-status' }, 'Set status');
  const draw = () => {
    const known = (STATUSES as readonly string[]).includes(current());
    replace(
      select,
      known || !current() ? null : el('option', { value: current() }, statusLabel(current())),
      ...STATUSES.map((s) => el('option', { value: s }, statusLabel(s))),
    );
    select.value = current();
    set.disabled = true;
    select.classList.toggle('reverted', reverted.has(ref.lead));
  };
  select.addEventListener('change', () => {
    set.disabled = select.value === current();
    reverted.delete(ref.lead);
    select.classList.remove('reverted');
  });
  set.addEventListener('click', async () => {
    const to = select.value;
    const from = current();
    if (to === from) return;
    set.disabled = true;
    select.disabled = true;
    const r = await write(
      host,
      ref,
      'set_status',
      { lead_id: ref.lead.id, status: to },
      (w) => `set the status of ${w} from ${statusLabel(from)} to ${statusLabel(to)}`,
    );
    select.disabled = false;
    if (r) Object.assign(ref.lead, { status: r.status ?? to, state: r.state ?? ref.lead.state });
    else reverted.add(ref.lead);
    draw();
    ref.changed();
  });
  draw();
  return el('span', { class: 'status-control', role: 'group', 'aria-label': 'Status' }, select, set);
}
