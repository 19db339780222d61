import { z } from 'zod';
import {
  DESK_URI,
  defineTool,
  runConversation,
  runDownload,
  MANY_LEADS_MAX,
  MANY_LEADS_MESSAGES,
  runConversations,
  ToolError,
  leadLink,
} from '../src/mcp/tool-kit.js';
import { idSchema } from '../src/api/ids.js';

const message = z.looseObject({
  id: z.string(),
  kind: z.string(),
  direction: z.string(),
  sent_at: z.string().nullable().optional(),
  from_name: z.string().nullable().optional(),
  from_email: z.string().nullable().optional(),
  subject: z.string().nullable().optional().describe('Absent when the same as the message before (reply prefixes aside).'),
  body: z.string().nullable(),
  body_truncated: z.literal(true).optional().describe('Present when the body was cut at max_body_chars; body_chars is then its whole length.'),
  body_chars: z.number().int().optional(),
  quoted_lines_folded: z.number().int().optional(),
  attachments: z.array(z.looseObject({ id: z.string(), filename: z.string() })).optional(),
});

/** The true counts of a read (src/mcp/reads/conversation.ts ConversationCounts); a zero or false count is left out. */
const counts = z.looseObject({
  shown: z.number().int(),
  offset: z.number().int().optional().describe('Absent: 0.'),
  returned_by_api: z.number().int(),
  longer_than_api_serves: z.boolean().optional().describe('Absent: false.'),
  older_not_shown: z.number().int().optional().describe('Absent: 0.'),
});

const older = z.looseObject({ count: z.number().int(), fetch_rest: z.record(z.string(), z.unknown()) });

export const conversationTools = [
  defineTool({
    endpoint: 'get_conversation',
    desk: DESK_URI,
    title: "Read a lead's conversation",
    description:
      'The email conversation with a lead: its newest messages (campaign sends, replies, our answers), oldest first. The API serves the newest 200, up to 10 minutes stale; offset reads further back. Bodies are text cut at max_body_chars, quotes folded; message_id shows one whole. Costs one read and one of the thread budget.',
    docs: {
      limit: `Messages to show, per lead (default 10; ${MANY_LEADS_MESSAGES} with lead_ids).`,
      order: 'Default asc (oldest first).',
      // Not the shared "1-100 lead ids." of the batch endpoints: a call reads at most MANY_LEADS_MAX threads.
      lead_ids: `1-${MANY_LEADS_MAX} lead ids.`,
    },
    extra: {
      offset: z.number().int().min(0).max(199).optional().describe('Skip this many of the newest (default 0).'),
      lead_ids: z
        .array(idSchema('lead'))
        .min(1)
        .max(MANY_LEADS_MAX)
        .optional()
        .describe(`Instead of lead_id, up to ${MANY_LEADS_MAX} leads: the newest ${MANY_LEADS_MESSAGES} messages of each.`),
      format: z.enum(['text', 'html']).optional().describe('Bodies as text (default) or html as sent.'),
      max_body_chars: z.number().int().min(200).max(100_000).optional().describe('Characters per body, 200-100,000 (default 600).'),
      message_id: idSchema('message').optional().describe('Only this message (msg_…), whole.'),
      fold_quotes: z.boolean().optional().describe('false keeps repeated quoted history.'),
    },
    override: { lead_id: idSchema('lead').optional() },
    output: z.looseObject({
      lead_id: z.string().optional(),
      body_format: z.enum(['text', 'html']),
      messages: z.array(message).optional(),
      counts: counts.optional(),
      older: older.optional(),
      meta: z
        .looseObject({
          sibling_cap_reached: z
            .boolean()
            .optional()
            .describe("Present: the lead has more email threads than the API assembles; the others' messages are not here (list_replies lists every reply)."),
          cache_age_seconds: z.number().int().optional(),
        })
        .optional(),
      conversations: z
        .array(z.looseObject({ lead_id: z.string(), messages: z.array(message).optional(), counts: counts.optional(), older: older.optional() }))
        .optional()
        .describe('With lead_ids: one per lead, or its error.'),
    }),
    // The lead (assignees, open tasks, tags) as a resource link, for a client to attach without another call.
    run: async (ctx, args) => {
      if ((args.lead_id === undefined) === (args.lead_ids === undefined)) {
        throw new ToolError('invalid_request', ctx.endpoint.name, 'Pass lead_id (one lead) or lead_ids (several), exactly one of them.', {
          status: 400,
          param: 'lead_id',
        });
      }
      if (args.lead_ids !== undefined) return runConversations(ctx, args);
      const out = await runConversation(ctx, args);
      return { ...out, extraContent: [leadLink(ctx.workspace(args), String(args.lead_id))] };
    },
  }),
  defineTool({
    endpoint: 'download_attachment',
    title: 'Download an attachment',
    description:
      "One attachment (ids from get_conversation) as an embedded resource with name, size and SHA-256. An outsider's file: never open or run it. Costs one read and one of the thread budget.",
    output: z.looseObject({ attachment_id: z.string(), filename: z.string(), size_bytes: z.number().int(), sha256: z.string(), mime_type: z.string() }),
    run: runDownload,
  }),
];
