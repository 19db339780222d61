import type { ApiCaller, ApiRequestOf } from '../declare/tool-context.js';
import type { EndpointName } from '../../api/endpoints.js';
import type { ReturnOf } from '../../api/returns.js';
import type { ToolDef } from '../declare/types.js';

export type { ConfirmSpec } from '../declare/types.js';
import { ToolError } from '../errors.js';
import { quoted, word } from '../view/quote.js';

/** --confirm: which writes ask the person first (when the client can ask: elicitation). */
export const CONFIRM_MODES = ['destructive', 'writes', 'never'] as const;
export type ConfirmMode = (typeof CONFIRM_MODES)[number];

/**
 * Whether this call asks the person first under `mode`. `destructive` follows the tool's
 * destructiveHint (the endpoint table's `destructive`): every such tool asks, on the calls its
 * `confirm.when` names (on every call without one), so the mode and the annotation never disagree.
 */
export function asksFirst(mode: ConfirmMode, tool: ToolDef, args: Record<string, unknown>): boolean {
  if (mode === 'never' || !tool.endpoint.write) return false;
  if (mode === 'writes') return true;
  return tool.endpoint.destructive && (tool.confirm?.when?.(args) ?? true);
}

type Row = Record<string, unknown>;
/** A read a question makes: the record as it is now, or null when the key cannot read it. */
type Read = <N extends EndpointName>(name: N, req: ApiRequestOf<N>) => Promise<ReturnOf<N> | null>;

/** How many leads of a batch the question names with their own words; the rest by id. */
const NAMED_LEADS = 10;

/** A lead as a person knows it: its id, then its name and address as the lead's data gives them, quoted. */
function leadName(id: string, l: Row | null): string {
  const who = [quoted([l?.first_name, l?.last_name].filter(Boolean).join(' ')), quoted(l?.email, 80)].filter(Boolean).join(', ');
  return `lead ${id}${who ? ` (${who})` : ''}`;
}

/** The first words of a text (task notes), quoted, with … when there is more. */
function firstWords(t: unknown): string | null {
  if (typeof t !== 'string') return null;
  const words = t.trim().split(/\s+/);
  return quoted(`${words.slice(0, 8).join(' ')}${words.length > 8 ? '…' : ''}`, 60);
}

/** What the question is about, named for a person, and the record as it is now (null when unread). */
interface Subject {
  text: string;
  now: Row | null;
}

async function leadsSubject(read: Read, ids: readonly string[], ws: string): Promise<Subject> {
  const named = await Promise.all(ids.slice(0, NAMED_LEADS).map(async (id) => leadName(id, await read('get_lead', { path: { workspace: ws, lead_id: id } }))));
  const rest = ids.slice(NAMED_LEADS);
  return { text: `${ids.length} leads: ${[...named, ...rest.map((id) => `lead ${id}`)].join('; ')}`, now: null };
}

async function taskSubject(read: Read, id: string, ws: string): Promise<Subject> {
  // There is no read of one task: the newest 200 of the workspace hold the task a person is acting on.
  const page = await read('list_tasks', { path: { workspace: ws }, query: { limit: 200 } });
  const t = (page?.data ?? []).find((x) => x.id === id) ?? null;
  if (!t) return { text: `Task ${id}`, now: null };
  const lead = typeof t.lead_id === 'string' ? leadName(t.lead_id, await read('get_lead', { path: { workspace: ws, lead_id: t.lead_id } })) : null;
  const notes = firstWords(t.notes);
  const facts = [word(t.status), t.due_date ? `due ${word(t.due_date)}` : 'no due day', notes ? `notes ${notes}` : 'no notes'];
  return { text: `Task ${id} (${facts.join(', ')})${lead ? ` on ${lead}` : ''}`, now: t };
}

async function meetingSubject(read: Read, id: string, ws: string): Promise<Subject> {
  const m = await read('get_meeting', { path: { workspace: ws, meeting_id: id } });
  if (!m) return { text: `Meeting ${id}`, now: null };
  const inv: Row = m.invitee ?? {};
  const who = [quoted(inv.name ?? m.name), quoted(inv.email ?? m.email, 80)].filter(Boolean).join(', ');
  const lead = typeof m.lead_id === 'string' ? ` with lead ${m.lead_id}${who ? ` (${who})` : ''}` : who ? ` with ${who}` : '';
  const when = typeof m.starts_at === 'string' ? ` at ${quoted(m.starts_at, 30)}` : '';
  return { text: `Meeting ${id}${when}${lead}, outcome now ${m.outcome ? word(m.outcome) : 'none recorded'}`, now: m };
}

/** The object a call changes, named for a person: ids are ours; names, addresses and notes are outsiders' words, quoted. */
async function subjectOf(api: ApiCaller, tool: ToolDef, args: Row, ws: string | null, signal: AbortSignal): Promise<Subject> {
  const where = ws ? ` in workspace ${ws}` : '';
  const read: Read = async (name, req) => {
    try {
      return (await api.call(name, { ...req, signal })).data;
    } catch {
      // The question still names the object by its id when the key cannot read it.
      return null;
    }
  };
  const within = (s: Subject) => ({ ...s, text: `${s.text}${where}` });
  if (Array.isArray(args.lead_ids) && ws) return within(await leadsSubject(read, args.lead_ids as string[], ws));
  if (typeof args.lead_id === 'string' && ws) {
    const l = await read('get_lead', { path: { workspace: ws, lead_id: args.lead_id } });
    const now = l ? `, status ${word(l.status)}, state ${word(l.state)}` : '';
    return within({ text: `${leadName(args.lead_id, l).replace(/^lead/, 'Lead')}${now}`, now: l });
  }
  if (typeof args.task_id === 'string' && ws) return within(await taskSubject(read, args.task_id, ws));
  if (typeof args.meeting_id === 'string' && ws) return within(await meetingSubject(read, args.meeting_id, ws));
  const ids = Object.entries(args)
    .filter(([k]) => /_ids?$/.test(k))
    .map(([k, v]) => `${k} ${Array.isArray(v) ? v.join(', ') || '(none)' : String(v)}`);
  return { text: `${tool.title}${ids.length ? ` (${ids.join('; ')})` : ''}${where}`, now: null };
}

/** A write without its own sentence (--confirm writes): its settings, outsider-looking text quoted. */
function settings(args: Row): string {
  const parts = Object.entries(args)
    .filter(([k, v]) => !/_ids?$/.test(k) && k !== 'workspace' && v !== undefined && typeof v !== 'object')
    .map(([k, v]) => `${k} ${typeof v === 'string' ? quoted(v) : String(v)}`);
  return parts.length ? ` with ${parts.join(', ')}` : '';
}

/** The one short paragraph the person answers: who and what, the change from what it is now, and that nothing is sent unasked. */
export async function questionFor(api: ApiCaller, tool: ToolDef, args: Row, ws: string | null, signal: AbortSignal): Promise<string> {
  const subject = await subjectOf(api, tool, args, ws, signal);
  const change = tool.confirm?.change(args, subject.now) ?? `${tool.title} (${tool.name})${settings(args)}.`;
  const each = Array.isArray(args.lead_ids) ? ` For each lead: ${change.charAt(0).toLowerCase()}${change.slice(1)}` : ` ${change}`;
  return `${subject.text}:${each} Nothing is sent unless you accept.`;
}

/** The tool's answer when the person said no, or could not be asked: nothing reached the API. */
export function declined(tool: string, action: 'decline' | 'cancel' | 'failed', why?: string): ToolError {
  const said = action === 'decline' ? 'declined' : action === 'cancel' ? 'dismissed the question' : `could not be asked (${why ?? 'no answer'})`;
  return new ToolError('declined', tool, `The person ${said}: ${tool} was not run and nothing was sent.`, {
    next_step: 'Do not repeat the call unless the person asks for it; tell them what you meant to change and why.',
  });
}
