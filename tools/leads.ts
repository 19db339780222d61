import { z } from 'zod';
import { DESK_URI, defineTool, listOf, listOutput, membersOutput, objectOf, writeOutput, conversationLink, word } from '../src/mcp/tool-kit.js';
import { leadResource } from '../src/api/resources.js';
import { runProjected } from './support/project.js';
import { viewOutput } from './support/compact.js';
import { runPriority, runSetOf, setOutput } from './support/set-answer.js';
import { CARD_EXTRA, runLeadCard } from './support/lead-card.js';
import { FILTER_NOTES, explainEmpty } from './support/lead-filters.js';
import { APPROXIMATE, CAMPAIGN_FILTER } from './support/approximate.js';
import { withSentences } from './support/said.js';

export { LEAD_TRIAGE_FIELDS } from './support/compact.js';
import { WRITE_VIEW, runWrite } from './support/write.js';

/** Statuses that complete every open task of the lead for good: the person is asked first. */
const ENDS_TASKS = new Set(['not_interested', 'unsubscribed', 'dnc']);

/** "Its state changes from active to X" when the lead was read, else "It moves to state X". */
const stateChange = (to: string, now: Record<string, unknown> | null) =>
  now ? `Its state changes from ${word(now.state)} to ${to}` : `It moves to state ${to}`;

/** The rows list_leads answers without a limit. */
export const LIST_LEADS_PAGE = 20;

const LEAD_FIELDS = Object.keys(leadResource.shape) as [string, ...string[]];
const compactLead = viewOutput('lead');

const VIEW_ARGS = {
  view: z.enum(['compact', 'full']).optional().describe('Default compact.'),
  fields: z.array(z.enum(LEAD_FIELDS)).min(1).max(LEAD_FIELDS.length).optional().describe('Only these lead fields (as in view=full), and id.'),
};

export const leadTools = [
  defineTool({
    endpoint: 'list_leads',
    desk: DESK_URI,
    title: 'List leads (the inbox)',
    description:
      'The shared inbox: one row per lead who replied, newest first. Filter by status, unread, priority, responded, assignee, tag, campaign, last direction, search q or time. fields or view=full give more than the compact rows. Read get_conversation before deciding.',
    docs: {
      limit: `Page size 1-200 (default ${LIST_LEADS_PAGE}).`,
      status: 'Statuses to match; booked and disqualified match those states.',
      assignee_id: 'Member ids, or ["none"] for unassigned.',
    },
    extra: VIEW_ARGS,
    output: listOutput(compactLead).extend({ ...FILTER_NOTES, ...APPROXIMATE }),
    // A page sized for triage, not the API's 50: a model reads every row it is given. An empty one says what its filters match.
    run: async (ctx, args) => {
      const page = explainEmpty(await runProjected(ctx, { limit: LIST_LEADS_PAGE, ...args }, 'lead'), args);
      return withSentences(page, { approximate: args.campaign_id !== undefined ? [CAMPAIGN_FILTER] : [] });
    },
  }),
  defineTool({
    endpoint: 'get_lead',
    title: 'Get a lead',
    description:
      'One lead: contact, status, state, campaign, assignees, latest reply, open task and note counts. include=sdr_notes (its playbook) costs an upstream call; expand, fields, view=full give more.',
    extra: VIEW_ARGS,
    output: compactLead.extend(CARD_EXTRA),
    // The conversation as a resource link: a client can attach it as context without a get_conversation call.
    run: async (ctx, args) => {
      const out = await runLeadCard(ctx, args);
      return { ...out, extraContent: [conversationLink(ctx.workspace(args), args.lead_id)] };
    },
  }),
  defineTool({
    endpoint: 'list_replies',
    title: "List a lead's replies",
    description: 'The inbound emails indexed for a lead. For the whole back-and-forth use get_conversation.',
    output: listOf('reply'),
  }),
  defineTool({
    endpoint: 'get_assignees',
    title: "Get a lead's assignees",
    description: 'Who a lead is assigned to, how (auto or manual) and when.',
    output: membersOutput(),
  }),
  defineTool({
    endpoint: 'set_assignees',
    title: "Set a lead's assignees",
    description: "Replaces the whole set of a lead's assignees with member_ids; [] unassigns everyone. Every id must be assignable or nothing is written.",
    did: 'assignees set',
    output: setOutput('assignees'),
    run: runSetOf('assignees', 'assignees_added', 'assignees_removed'),
    confirm: {
      when: (a: { member_ids: string[] }) => a.member_ids.length === 0,
      asks: 'when member_ids is empty, leaving no one assigned',
      change: (_a, now) => {
        const held = now?.assignee_ids;
        const ids = Array.isArray(held) ? held.filter((x) => typeof x === 'string' && /^usr_\w+$/.test(x)) : [];
        return `Every assignee${ids.length ? ` (${ids.join(', ')})` : ''} is removed: no one in the team is assigned this lead any more.`;
      },
    },
  }),
  defineTool({
    endpoint: 'list_lead_tags',
    title: 'List manual lead tags',
    description: "The workspace's manual lead tags, for set_lead_tags and list_leads lead_tag_id.",
    output: listOf('lead_tag'),
  }),
  defineTool({
    endpoint: 'get_lead_tags',
    title: "Get a lead's tags",
    description: 'The manual tags of a lead, in the order applied.',
    output: listOf('lead_tag'),
  }),
  defineTool({
    endpoint: 'set_lead_tags',
    title: "Set a lead's tags",
    description: "Replaces the whole set of a lead's manual tags with tag_ids (from list_lead_tags); [] removes all.",
    did: 'tags set',
    output: setOutput('tags'),
    run: runSetOf('tags', 'tags_added', 'tags_removed'),
    confirm: {
      when: (a: { tag_ids: string[] }) => a.tag_ids.length === 0,
      asks: 'when tag_ids is empty, leaving the lead untagged',
      change: () => 'Every manual tag is removed from it.',
    },
  }),
  defineTool({
    endpoint: 'set_priority',
    title: 'Star or unstar leads',
    description: 'Stars or unstars up to 100 leads for you alone. All ids must exist or nothing changes; a repeat says updated_count 0.',
    docs: { priority: 'true stars, false unstars (yours only).' },
    did: 'priority set',
    output: objectOf('lead_priority_update'),
    run: runPriority,
  }),
  defineTool({
    endpoint: 'set_status',
    title: "Set a lead's status",
    description: "Sets a lead's status; not_interested and unsubscribed also complete its open tasks for good. Local only.",
    docs: { status: 'New status; dnc = unsubscribed.' },
    extra: WRITE_VIEW,
    did: 'status set',
    batch: true,
    output: writeOutput('lead'),
    run: runWrite(['status', 'state', 'has_open_task', 'next_due_at']),
    // not_interested and unsubscribed complete open tasks for good; unsubscribed is local (spec: it does not change upstream sending).
    confirm: {
      when: (a: { status: string }) => ENDS_TASKS.has(a.status),
      asks: 'when status is not_interested, unsubscribed or dnc',
      change: (a: { status: string }, now) => {
        const to = a.status === 'dnc' ? 'unsubscribed' : a.status;
        const from = now ? `changes from ${word(now.status)} to` : 'becomes';
        const stops = to === 'unsubscribed' ? ' (do not contact) in this inbox only: the sending platform is not told,' : ',';
        return `Its status ${from} ${to}${stops} and every open task of the lead is completed for good.`;
      },
    },
  }),
  defineTool({
    endpoint: 'mark_read',
    title: 'Mark a lead read',
    description: 'Marks a lead read for you (and the workspace-wide receipt).',
    did: 'marked read',
    batch: true,
    output: writeOutput('lead'),
    run: runWrite(['unread']),
  }),
  defineTool({
    endpoint: 'mark_unread',
    title: 'Mark a lead unread',
    description: 'Clears your read receipt: the lead shows unread for you again.',
    did: 'marked unread',
    batch: true,
    output: writeOutput('lead'),
    run: runWrite(['unread']),
  }),
  defineTool({
    endpoint: 'mark_responded',
    title: 'Mark a lead responded',
    description: "Marks that the team responded: the lead leaves every rep's worklist until a newer reply. No call undoes it.",
    did: 'marked responded',
    batch: true,
    output: writeOutput('lead'),
    run: runWrite(['responded']),
    confirm: {
      change: () => "It is marked responded for the whole team and leaves every rep's worklist until a newer reply; no call undoes it.",
    },
  }),
  defineTool({
    endpoint: 'mark_booked',
    title: 'Mark a lead booked',
    description: 'Moves a lead to state booked and completes its open tasks; create_meeting=true also records a meeting. Books nothing on a calendar.',
    did: 'marked booked',
    output: writeOutput('lead'),
    run: runWrite(['state', 'booked_at']),
    confirm: {
      change: (a: { create_meeting?: boolean }, now) =>
        `${stateChange('booked', now)}${a.create_meeting ? ' and a meeting is recorded' : ''}, and every open task of the lead is completed for good. No calendar is booked.`,
    },
  }),
  defineTool({
    endpoint: 'mark_disqualified',
    title: 'Mark a lead disqualified',
    description: 'Moves a lead to state disqualified and completes its open tasks.',
    did: 'marked disqualified',
    output: writeOutput('lead'),
    run: runWrite(['state', 'disqualified_at']),
    confirm: {
      change: (a: { reengage_approved?: boolean }, now) =>
        `${stateChange('disqualified', now)}${a.reengage_approved ? ' (re-engagement approved)' : ''}, and every open task of the lead is completed for good.`,
    },
  }),
];
