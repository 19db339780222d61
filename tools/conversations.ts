import { z } from 'zod';
import { DESK_URI } from '../src/mcp/app/constants.js';
import { idSchema } from '../src/api/ids.js';
import { defineTool } from '../src/mcp/tool/define.js';
import { runConversation, runDownload } from '../src/mcp/reads/conversation.js';
import { leadLink } from '../src/mcp/view/links.js';

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

export const conversationTools = [
  defineTool({
    endpoint: 'get_conversation',
    app: DESK_URI,
    title: "Read a lead's conversation",
    description:
      'The email conversation with a lead, oldest first: campaign sends, their replies, our answers (at most 200 messages; up to 10 minutes stale). Bodies are text cut at max_body_chars, repeated quotes folded; message_id shows one whole. Costs one read and one of the thread budget.',
    docs: { limit: 'Newest messages to show (default 50).', order: 'Default asc (oldest first).' },
    extra: {
      format: z.enum(['text', 'html']).optional().describe('Bodies as text (default) or html as sent.'),
      max_body_chars: z.number().int().min(200).max(100_000).optional().describe('Characters per body, 200-100,000 (default 2,000).'),
      message_id: idSchema('message').optional().describe('Only this message (msg_…), whole.'),
      fold_quotes: z.boolean().optional().describe('false keeps repeated quoted history.'),
    },
    output: z.looseObject({
      lead_id: z.string(),
      body_format: z.enum(['text', 'html']),
      messages: z.array(message),
      meta: z.looseObject({ truncated: z.boolean().optional(), sibling_cap_reached: z.boolean().optional(), cache_age_seconds: z.number().int().optional() }),
    }),
    // The lead (assignees, open tasks, tags) as a resource link, for a client to attach without another call.
    run: async (ctx, args) => {
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
