import { type Fence, UNTRUSTED_NOTE } from '../../src/mcp/view/fence.js';

type Lead = Record<string, unknown>;
const s = (v: unknown) => (typeof v === 'string' && v !== '' ? v : null);

/**
 * One lead in two lines: our facts (ids, states, times) in the open, and everything the
 * lead wrote (name, title, company, subject, preview) in a single fence. Half the bytes
 * of the same row as JSON with a fence per field.
 */
export function leadLines(l: Lead, fence: Fence): string {
  const facts: string[] = [String(l.id)];
  for (const k of ['status', 'classification', 'state'] as const) if (s(l[k])) facts.push(String(l[k]));
  if (l.unread === true) facts.push('unread');
  if (l.priority === true) facts.push('starred');
  if (l.responded === true) facts.push('responded');
  if (s(l.last_message_at)) facts.push(`last ${l.last_message_direction ?? 'message'} ${l.last_message_at}`);
  if (l.has_open_task === true) facts.push(s(l.next_due_at) ? `open task due ${l.next_due_at}` : 'open task');
  if (Array.isArray(l.assignee_ids) && l.assignee_ids.length) facts.push(`assigned ${l.assignee_ids.join(',')}`);
  if (s(l.campaign_name)) facts.push(`campaign ${l.campaign_name}`);
  if (s(l.meeting_outcome)) facts.push(`meeting ${l.meeting_outcome}`);
  // The address is the lead's own text too (a quoted local part can hold anything), so it goes in the fence.
  const name = [s(l.first_name), s(l.last_name)].filter(Boolean).join(' ');
  const address = s(l.email) ? `<${l.email}>` : null;
  const who = [[name, address].filter(Boolean).join(' '), s(l.title), s(l.company_name)].filter(Boolean).join(', ');
  const said = [who, s(l.subject), s(l.body_preview)].filter(Boolean).join(' | ');
  return `- ${facts.join('; ')}${said ? `\n  ${fence.inline(said)}` : ''}`;
}

/** The text copy of a compact lead page. */
export function leadPageText(page: { data: Lead[]; has_more?: boolean; next_cursor?: string | null }, fence: Fence): string {
  const head = `${page.data.length} lead${page.data.length === 1 ? '' : 's'}, newest message first${page.has_more ? `; more: pass cursor "${page.next_cursor}"` : '; no more pages'}.`;
  return [UNTRUSTED_NOTE, head, ...page.data.map((l) => leadLines(l, fence))].join('\n');
}
