import { ResourceTemplate } from '@modelcontextprotocol/server';
import { CONVERSATION_TOOL, DEFAULT_MESSAGES, type Shaped, countLines, runConversation } from '../../reads/conversation.js';
import { Fence, UNTRUSTED_NOTE } from '../../view/fence.js';
import { TEMPLATE } from '../../view/links.js';
import { fitResult } from '../../view/result-budget.js';
import { leadIdOf, workspaceOr } from '../access.js';
import { budgetOf, MARKDOWN, one, type ResourceKit, text } from './kit.js';

/** Messages in a conversation resource: the newest, as get_conversation gives by default. */
export const CONVERSATION_MESSAGES = DEFAULT_MESSAGES;

/** inbox://{workspace}/leads/{lead}/conversation: the newest messages as markdown, within the result budget. */
export function registerConversation(kit: ResourceKit): void {
  const { mcp } = kit;
  mcp.registerResource(
    'conversation',
    new ResourceTemplate(TEMPLATE.conversation, { list: undefined, complete: kit.leadVars }),
    {
      title: 'Lead conversation',
      description:
        "A lead's newest messages as markdown, oldest first: one section per message with direction, sender, time and attachments; bodies fenced as untrusted.",
      mimeType: MARKDOWN,
    },
    kit.guarded('conversation resource', async (uri, vars, extra, { access, log }) => {
      const ws = workspaceOr(access, one(vars.workspace));
      const lead = leadIdOf(one(vars.lead));
      const fence = new Fence();
      const ctx = { api: access.api, signal: extra.signal, fence, log, workspace: () => ws, progress: async () => undefined };
      const out = await runConversation(ctx, { workspace: ws, lead_id: lead, limit: CONVERSATION_MESSAGES });
      // Within the budget as a tool result is: the oldest messages give way, and the last line says how to read them.
      const markdown = { ...out, render: (c: Record<string, unknown>) => conversationMarkdown(ws, c as unknown as Shaped, fence) };
      const fitted = await fitResult(markdown, {
        budget: budgetOf(access),
        fence,
        tool: CONVERSATION_TOOL,
        textOnly: true,
        rest: async (k, n) => out.items?.rest?.(k, n) ?? null,
      });
      return text(uri, MARKDOWN, fitted.text);
    }),
  );
}

/** The conversation as markdown a model reads well: a section per message, every outside string fenced. */
export function conversationMarkdown(ws: string, c: Shaped, fence: Fence): string {
  const lines = [`# Conversation with lead ${c.lead_id} (workspace ${ws})`, '', UNTRUSTED_NOTE, ''];
  lines.push(...countLines(c, 'asc'), "get_conversation's message_id reads one body whole.");
  c.messages.forEach((m, i) => {
    const who = fence.inline([m.from_name, m.from_email ? `<${m.from_email}>` : null].filter(Boolean).join(' ') || null);
    lines.push(
      '',
      `## ${i + 1}. ${m.direction === 'inbound' ? 'Inbound' : m.direction === 'outbound' ? 'Outbound' : m.direction} ${m.kind === 'campaign_send' ? 'campaign send' : m.kind}`,
      '',
    );
    lines.push(`- Message: ${m.id}`, `- Direction: ${m.direction}`, `- From: ${who}`, `- Time: ${m.sent_at ?? 'unknown'}`);
    if (m.subject) lines.push(`- Subject: ${fence.inline(m.subject)}`);
    lines.push(`- Attachments: ${m.attachments?.length ? m.attachments.map((a) => `${fence.inline(a.filename)} (${a.id})`).join(', ') : 'none'}`);
    lines.push('', m.body ? fence.wrap(m.body, 'email body') : '(no body)');
  });
  return `${lines.join('\n')}\n`;
}
