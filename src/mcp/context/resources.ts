import { type McpServer, ResourceTemplate } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { ReadResourceResult, Resource } from '@modelcontextprotocol/sdk/types.js';
import type { Variables } from '@modelcontextprotocol/sdk/shared/uriTemplate.js';
import type { Logger } from 'pino';
import { htmlToText } from '../../api/text.js';
import { readError } from '../errors.js';
import { type InboxAccess, hasScope, leadIdOf, workspaceOr } from './access.js';
import { completeLead, completeWorkspace } from './completions.js';
import { DEFAULT_MESSAGES, type Shaped, countLines, runConversation } from '../reads/conversation.js';
import { Fence, UNTRUSTED_NOTE } from '../view/fence.js';
import { TEMPLATE, URI } from '../view/links.js';
import { readPages } from '../pipeline/multipage.js';
import { dropEmpty, fenceDeep } from '../view/shape.js';
import { DEFAULT_MAX_RESULT_BYTES, fitResult, withinBudget } from '../view/result-budget.js';
import { MAX_ITEMS_BOUND } from '../tool/shared-args.js';

/** Leads in resources/list: one page of the newest, never a crawl of the inbox. */
export const LISTED_LEADS = 20;
/** Messages in a conversation resource: the newest, as get_conversation gives by default. */
export const CONVERSATION_MESSAGES = DEFAULT_MESSAGES;
const LEAD_EXPANSIONS = ['assignees', 'open_tasks', 'tags'];
/** What the leads resource shows of each lead: enough to choose which to read. */
const LEADS_FIELDS = [
  'id',
  'first_name',
  'last_name',
  'email',
  'company_name',
  'status',
  'state',
  'unread',
  'subject',
  'body_preview',
  'last_message_at',
  'last_message_direction',
];

type Extra = { signal: AbortSignal };
type Row = Record<string, unknown>;

const JSON_TYPE = 'application/json';
const MARKDOWN = 'text/markdown';

function text(uri: URL, mimeType: string, body: string): ReadResourceResult {
  return { contents: [{ uri: uri.toString(), mimeType, text: body }] };
}

/** A URI variable as one string (our templates have no exploded variables). */
const one = (v: Variables[string] | undefined) => (Array.isArray(v) ? v[0] : v);

/**
 * Leads, conversations and the workspace's playbook, members, tag roster and the API's
 * capabilities as MCP resources. Every read goes through the server's client (its rate
 * limiter), and text written by outsiders reaches the model fenced, as in tool results.
 */
export function registerResources(mcp: McpServer, access: InboxAccess, log: Logger): void {
  /** Run a read; an API failure becomes a JSON-RPC error carrying the API's envelope. */
  const guarded =
    (what: string, read: (uri: URL, vars: Variables, extra: Extra) => Promise<ReadResourceResult>) => async (uri: URL, vars: Variables, extra: Extra) => {
      try {
        return await read(uri, vars, extra);
      } catch (err) {
        access.failed(err, what);
        throw readError(err, what);
      }
    };
  /** List entries for the default workspace only, and only where the key has the scope. */
  const forDefault = (scope: string, entry: (ws: string) => Resource | Promise<Resource[]>) => async () => {
    const ws = access.defaultWorkspace();
    if (!ws || !hasScope(access, scope)) return { resources: [] };
    try {
      const made = await entry(ws);
      return { resources: Array.isArray(made) ? made : [made] };
    } catch (err) {
      // A listing that cannot reach the API still lists the rest.
      log.debug({ err }, 'resource listing failed');
      access.failed(err, 'resources/list');
      return { resources: [] };
    }
  };
  const workspaceOnly = { workspace: completeWorkspace(access) };
  const budget = () => access.maxResultBytes?.() ?? DEFAULT_MAX_RESULT_BYTES;
  const leadVars = { workspace: completeWorkspace(access), lead: completeLead(access) };

  mcp.registerResource(
    'leads',
    new ResourceTemplate(TEMPLATE.leads, {
      list: forDefault('leads:read', (ws) => ({ uri: URI.leads(ws), name: `leads-${ws}`, title: `Newest leads of ${ws}`, mimeType: JSON_TYPE })),
      complete: workspaceOnly,
    }),
    {
      title: 'Newest leads',
      description: `The ${LISTED_LEADS} leads with the newest messages, as JSON; subscribe to hear of new replies and changed leads. Text leads wrote is fenced as untrusted.`,
      mimeType: JSON_TYPE,
    },
    guarded('leads resource', async (uri, vars, extra) => {
      const ws = workspaceOr(access, one(vars.workspace));
      const r = await access.api.call('list_leads', { path: { workspace: ws }, query: { limit: LISTED_LEADS }, signal: extra.signal });
      const rows = ((r.data as { data: Row[] }).data ?? []).map((l) => Object.fromEntries(LEADS_FIELDS.filter((f) => f in l).map((f) => [f, l[f]])));
      const fenced = fenceDeep(dropEmpty(rows), new Fence());
      return text(uri, JSON_TYPE, withinBudget(JSON.stringify({ note: UNTRUSTED_NOTE, workspace: ws, leads: fenced }), budget(), 'leads resource'));
    }),
  );

  mcp.registerResource(
    'lead',
    new ResourceTemplate(TEMPLATE.lead, {
      list: forDefault('leads:read', async (ws) => {
        const r = await access.api.call('list_leads', { path: { workspace: ws }, query: { limit: LISTED_LEADS } });
        return ((r.data as { data: Row[] }).data ?? []).map((l) => leadEntry(ws, l));
      }),
      complete: leadVars,
    }),
    {
      title: 'Lead',
      description: 'One lead as JSON with its assignees, open tasks and tags; text the lead wrote is fenced as untrusted.',
      mimeType: JSON_TYPE,
    },
    guarded('lead resource', async (uri, vars, extra) => {
      const ws = workspaceOr(access, one(vars.workspace));
      const lead = leadIdOf(one(vars.lead));
      const r = await access.api.call('get_lead', { path: { workspace: ws, lead_id: lead }, query: { expand: LEAD_EXPANSIONS }, signal: extra.signal });
      const fenced = fenceDeep(dropEmpty(r.data), new Fence());
      return text(uri, JSON_TYPE, withinBudget(JSON.stringify({ note: UNTRUSTED_NOTE, lead: fenced }), budget(), 'lead resource'));
    }),
  );

  mcp.registerResource(
    'conversation',
    new ResourceTemplate(TEMPLATE.conversation, { list: undefined, complete: leadVars }),
    {
      title: 'Lead conversation',
      description:
        "A lead's newest messages as markdown, oldest first: one section per message with direction, sender, time and attachments; bodies fenced as untrusted.",
      mimeType: MARKDOWN,
    },
    guarded('conversation resource', async (uri, vars, extra) => {
      const ws = workspaceOr(access, one(vars.workspace));
      const lead = leadIdOf(one(vars.lead));
      const fence = new Fence();
      const ctx = { api: access.api, signal: extra.signal, fence, log, workspace: () => ws, progress: async () => undefined };
      const out = await runConversation(ctx, { workspace: ws, lead_id: lead, limit: CONVERSATION_MESSAGES });
      // Within the budget as a tool result is: the oldest messages give way, and the last line says how to read them.
      const markdown = { ...out, render: (c: Record<string, unknown>) => conversationMarkdown(ws, c as unknown as Shaped, fence) };
      const fitted = await fitResult(markdown, {
        budget: budget(),
        fence,
        tool: 'get_conversation',
        textOnly: true,
        rest: async (k, n) => out.items?.rest?.(k, n) ?? null,
      });
      return text(uri, MARKDOWN, fitted.text);
    }),
  );

  mcp.registerResource(
    'playbook',
    new ResourceTemplate(TEMPLATE.playbook, {
      list: forDefault('workspaces:read', (ws) => ({ uri: URI.playbook(ws), name: `playbook-${ws}`, title: `Playbook of ${ws}`, mimeType: MARKDOWN })),
      complete: workspaceOnly,
    }),
    { title: 'Workspace playbook', description: "The team's reply playbook for a workspace (sdr_notes), as written by the team.", mimeType: MARKDOWN },
    guarded('playbook resource', async (uri, vars, extra) => {
      const ws = workspaceOr(access, one(vars.workspace));
      const r = await access.api.call('get_workspace', { path: { workspace: ws }, query: { include: ['sdr_notes'] }, signal: extra.signal });
      const w = r.data as { name?: string; sdr_notes?: string | null };
      const head = `# Playbook of ${w.name ?? ws} (${ws})\n\n`;
      const body = w.sdr_notes
        ? `The team's reply playbook (sdr_notes), as the team wrote it:\n\n${htmlToText(w.sdr_notes)}\n`
        : 'This workspace has no playbook (sdr_notes is empty).\n';
      return text(uri, MARKDOWN, head + body);
    }),
  );

  /** A workspace roster read whole (every page) as JSON: members, lead tags. */
  const roster = (r: {
    name: string;
    template: string;
    uri: (ws: string) => string;
    scope: string;
    endpoint: string;
    title: string;
    listTitle: string;
    description: string;
  }) =>
    mcp.registerResource(
      r.name,
      new ResourceTemplate(r.template, {
        list: forDefault(r.scope, (ws) => ({ uri: r.uri(ws), name: `${r.name}-${ws}`, title: `${r.listTitle} ${ws}`, mimeType: JSON_TYPE })),
        complete: workspaceOnly,
      }),
      { title: r.title, description: r.description, mimeType: JSON_TYPE },
      guarded(`${r.name} resource`, async (uri, vars, extra) => {
        const ws = workspaceOr(access, one(vars.workspace));
        const list = await readPages(access.api, r.endpoint, { path: { workspace: ws } }, { maxItems: MAX_ITEMS_BOUND, signal: extra.signal });
        return text(uri, JSON_TYPE, withinBudget(JSON.stringify({ workspace: ws, ...list }), budget(), 'list resource'));
      }),
    );
  roster({
    name: 'members',
    template: TEMPLATE.members,
    uri: URI.members,
    scope: 'members:read',
    endpoint: 'list_members',
    title: 'Workspace members',
    listTitle: 'Members of',
    description: 'The people of a workspace with their two-part member ids, roles and whether they can be assigned leads, as JSON.',
  });
  roster({
    name: 'lead-tags',
    template: TEMPLATE.leadTags,
    uri: URI.leadTags,
    scope: 'leads:read',
    endpoint: 'list_lead_tags',
    title: 'Lead tag roster',
    listTitle: 'Lead tags of',
    description: "The workspace's manual lead tags (ltg_ ids and names) for set_lead_tags and the lead_tag_id filter, as JSON.",
  });

  mcp.registerResource(
    'capabilities',
    URI.capabilities,
    { title: 'API capabilities', description: 'The live enums, limits, filters and expansions of the Reply Inbox API, as JSON.', mimeType: JSON_TYPE },
    async (uri, extra) => {
      try {
        const r = await access.api.call('get_capabilities', { signal: extra.signal });
        return text(uri, JSON_TYPE, withinBudget(JSON.stringify(r.data), budget(), 'capabilities resource'));
      } catch (err) {
        access.failed(err, 'capabilities resource');
        throw readError(err, 'capabilities resource');
      }
    },
  );
}

/** A lead in resources/list: our facts only in the title; what the lead wrote stays out of listings. */
function leadEntry(ws: string, l: Row): Resource {
  const id = String(l.id);
  const facts = [l.status, l.unread === true ? 'unread' : null, l.last_message_at ? `last message ${l.last_message_at}` : null].filter(Boolean).join(', ');
  return {
    uri: URI.lead(ws, id),
    name: id,
    title: `Lead ${id}${facts ? ` (${facts})` : ''}`,
    mimeType: JSON_TYPE,
    ...(typeof l.last_message_at === 'string' ? { annotations: { lastModified: l.last_message_at } } : {}),
  };
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
