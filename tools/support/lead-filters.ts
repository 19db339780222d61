import { z } from 'zod';
import type { ToolOutput } from '../../src/mcp/tool-kit.js';
import { withSentences } from './said.js';

type Row = Record<string, unknown>;

/**
 * What a list_leads filter matches, in the spec's words, for the filters whose meaning an agent
 * commonly misreads: said when a page comes back empty, so that "0 leads" is not read as
 * "nobody wrote it" or "no such lead". Each sentence says where to look instead.
 */
const MATCHES: Readonly<Record<string, string>> = {
  q: "q matches words starting with it in a lead's name, email, company, title and subject (punctuation splits words), never in message bodies: no lead has such a word there, which does not mean nobody wrote it. The words of a message are read with get_conversation (lead_ids reads up to 10 leads); list_replies shows each reply's body_preview.",
  campaign_id:
    'campaign_id matches the campaign recorded on a lead, which is empty on leads of roughly the last 15 minutes and never filled in afterwards (nor on rows not touched since): such leads of the campaign are not matched. list_leads without campaign_id (updated_since for the recent ones) shows them, with campaign_name where it is known.',
  status:
    "status is the tag a person or a rule set (booked and disqualified match those states); the categorizer's verdict is classification (INTERESTED, …), which no filter takes: an untagged lead classified INTERESTED matches status untagged, not interested.",
  email: 'email matches one whole address exactly (any case): for part of an address, or a domain, use q.',
  unread: "unread is yours: the key owner's own read receipts, not a teammate's.",
  priority: "priority is the key owner's own star, not a teammate's.",
  has_open_task: 'has_open_task counts only open tasks of the key owner, not those of other assignees.',
  task_due_before: 'task_due_before counts only open tasks of the key owner, due strictly before that day.',
  responded:
    'responded is team-wide, set by mark_responded, and a strictly newer inbound reply sets it back to false: it says nothing of whether anyone wrote back.',
  direction: 'direction is who wrote the last message only (received: the lead; sent: the team), not whether a message in that direction exists.',
  updated_since: 'updated_since compares the time of the last message (last_message_at), strictly after, not the time of a status or other change.',
  updated_before: 'updated_before compares the time of the last message (last_message_at), strictly before, not the time of a status or other change.',
};

/** The field both forms carry. */
export const FILTER_NOTES = {
  filter_notes: z
    .array(z.string())
    .optional()
    .describe('On an empty page: what the filters given match and do not, as the API reads them, and where to look instead.'),
};

/** The filters of this call whose meaning is said when nothing matched, in the order of the table. */
export function filterNotes(args: Row): string[] {
  return Object.keys(MATCHES)
    .filter((k) => args[k] !== undefined)
    .map((k) => MATCHES[k]!);
}

/** list_leads' page, with filter_notes (both forms) when it is empty. */
export function explainEmpty(out: ToolOutput, args: Row): ToolOutput {
  const data = out.structured.data;
  return withSentences(out, { filter_notes: Array.isArray(data) && data.length === 0 ? filterNotes(args) : [] });
}
