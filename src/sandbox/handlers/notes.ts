import { randomBytes } from 'node:crypto';
import { type Ctx, type AreaHandlers, wsOf } from '../context.js';
import { fail, notFound } from '../errors.js';
import { compareKeys, keysetPage } from '../paging.js';
import { iso } from '../seed/time.js';
import { SORT } from '../store/store.js';
import type { LeadRec, NoteRec } from '../store/types.js';
import { noteView } from '../views/work.js';

/** A lead of the path workspace; another workspace's lead is reported as not found (rule 9). */
export function leadIn(ctx: Ctx, leadId: string, param: string): LeadRec {
  const lead = ctx.store.leads.get(leadId);
  if (!lead || lead.workspace !== wsOf(ctx).id) notFound('lead', param);
  return lead;
}

/** The lead's newest indexed reply, which task and note writes attach to. */
export function newestReplyId(ctx: Ctx, lead: LeadRec): string | null {
  let newest = null as { received_at: string | null; id: string } | null;
  for (const r of ctx.store.repliesByLead.get(lead.id)) {
    if (!newest || compareKeys([r.received_at, r.id], [newest.received_at, newest.id]) > 0) newest = r;
  }
  return newest?.id ?? lead.latest_reply_id ?? null;
}

export const notesHandlers = {
  list_notes(ctx) {
    const ws = wsOf(ctx);
    const q = ctx.query;
    const lead = q.lead_id !== undefined ? leadIn(ctx, q.lead_id, 'lead_id') : undefined;
    if (q.author_id !== undefined && !ctx.store.memberOfUser(ws.id, q.author_id)) {
      fail('unprocessable', `${q.author_id} is not a member of workspace ${ws.id}.`, { param: 'author_id' });
    }
    const since = q.created_since !== undefined ? Date.parse(q.created_since) : undefined;
    const filter = (n: NoteRec): boolean =>
      (lead === undefined || n.lead_id === lead.id) &&
      (q.author_id === undefined || n.author_id === q.author_id) &&
      (since === undefined || (n.created_at !== null && Date.parse(n.created_at) > since));
    const items = lead
      ? [...ctx.store.notesByLead.get(lead.id)].sort((a, b) => compareKeys(SORT.note(a), SORT.note(b)))
      : ctx.store.notes.sorted(ws.id, 'note', SORT.note);
    return {
      body: keysetPage({ cursors: ctx.cursors, endpoint: 'list_notes', scope: ws.id, req: ctx.page(), items, keyOf: SORT.note, filter, view: noteView }),
    };
  },

  create_note(ctx) {
    const ws = wsOf(ctx);
    const b = ctx.body;
    const lead = leadIn(ctx, b.lead_id, 'lead_id');
    const now = iso(ctx.now());
    const n = ctx.store.addNote({
      id: `note_${randomBytes(9).toString('hex')}`,
      workspace: ws.id,
      lead_id: lead.id,
      reply_id: newestReplyId(ctx, lead),
      body: b.body,
      author_id: ctx.caller.owner.id,
      created_at: now,
      updated_at: now,
    });
    return { status: 201, body: { ...noteView(n), effects: { note_created: true, provider_writes: [] } } };
  },
} satisfies AreaHandlers;
