import type { ApiCaller } from '../tool/context.js';
import type { ToolDef } from '../tool/types.js';

export type { ConfirmSpec } from '../tool/types.js';
import { ToolError } from '../errors.js';
import { quoted } from '../view/quote.js';

/** --confirm: which writes ask the person first (when the client can ask: elicitation). */
export const CONFIRM_MODES = ['destructive', 'writes', 'never'] as const;
export type ConfirmMode = (typeof CONFIRM_MODES)[number];

/** Whether this call asks the person first under `mode`. */
export function asksFirst(mode: ConfirmMode, tool: ToolDef, args: Record<string, unknown>): boolean {
  if (mode === 'never' || !tool.endpoint.write) return false;
  if (mode === 'writes') return true;
  return tool.confirm !== undefined && (tool.confirm.when?.(args) ?? true);
}

type Row = Record<string, unknown>;

/** The object a call changes, named for a person: ids are ours; names and addresses are the lead's own words, quoted. */
async function subjectOf(api: ApiCaller, tool: ToolDef, args: Row, ws: string | null, signal: AbortSignal): Promise<string> {
  const where = ws ? ` in workspace ${ws}` : '';
  const read = async (name: string, path: Record<string, string>): Promise<Row | null> => {
    try {
      return (await api.call(name, { path, signal })).data as Row;
    } catch {
      // The question still names the object by its id when the key cannot read it.
      return null;
    }
  };
  if (typeof args.lead_id === 'string' && ws) {
    const l = await read('get_lead', { workspace: ws, lead_id: args.lead_id });
    const who = [quoted([l?.first_name, l?.last_name].filter(Boolean).join(' ')), quoted(l?.email, 80)].filter(Boolean).join(', ');
    return `Lead ${args.lead_id}${who ? ` (${who}, as the lead's data gives it)` : ''}${where}`;
  }
  if (typeof args.meeting_id === 'string' && ws) {
    const m = await read('get_meeting', { workspace: ws, meeting_id: args.meeting_id });
    const now = m ? `, outcome now ${typeof m.outcome === 'string' ? quoted(m.outcome, 30) : 'none'}` : '';
    const lead = typeof m?.lead_id === 'string' ? ` with lead ${m.lead_id}` : '';
    return `Meeting ${args.meeting_id}${lead}${now}${where}`;
  }
  const ids = Object.entries(args)
    .filter(([k]) => /_ids?$/.test(k))
    .map(([k, v]) => `${k} ${Array.isArray(v) ? v.join(', ') || '(none)' : String(v)}`);
  return `${tool.title}${ids.length ? ` (${ids.join('; ')})` : ''}${where}`;
}

/** A write without its own sentence (--confirm writes): its settings, outsider-looking text quoted. */
function settings(args: Row): string {
  const parts = Object.entries(args)
    .filter(([k, v]) => !/_ids?$/.test(k) && k !== 'workspace' && v !== undefined && typeof v !== 'object')
    .map(([k, v]) => `${k} ${typeof v === 'string' ? quoted(v) : String(v)}`);
  return parts.length ? ` with ${parts.join(', ')}` : '';
}

/** The one short paragraph the person answers. */
export async function questionFor(api: ApiCaller, tool: ToolDef, args: Row, ws: string | null, signal: AbortSignal): Promise<string> {
  const subject = await subjectOf(api, tool, args, ws, signal);
  const change = tool.confirm?.change(args) ?? `${tool.title} (${tool.name})${settings(args)}.`;
  return `${subject}: ${change} Nothing is sent unless you accept.`;
}

/** The tool's answer when the person said no, or could not be asked: nothing reached the API. */
export function declined(tool: string, action: 'decline' | 'cancel' | 'failed', why?: string): ToolError {
  const said = action === 'decline' ? 'declined' : action === 'cancel' ? 'dismissed the question' : `could not be asked (${why ?? 'no answer'})`;
  return new ToolError('declined', tool, `The person ${said}: ${tool} was not run and nothing was sent.`, {
    next_step: 'Do not repeat the call unless the person asks for it; tell them what you meant to change and why.',
  });
}
