import { ResourceTemplate } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { Resource } from '@modelcontextprotocol/sdk/types.js';
import { Fence, UNTRUSTED_NOTE } from '../../view/fence.js';
import { TEMPLATE, URI } from '../../view/links.js';
import { shortenToFit, within, withinBudget } from '../../view/result-budget.js';
import { dropEmpty, fenceDeep } from '../../view/shape.js';
import { workspaceOr } from '../access.js';
import { JSON_TYPE, LISTED_LEADS, type ResourceKit, type Row, one, text } from './kit.js';

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

/** inbox://{workspace}/leads: the newest leads as JSON, the one a live inbox subscribes to. */
export function registerLeads(kit: ResourceKit): void {
  const { mcp, access } = kit;
  mcp.registerResource(
    'leads',
    new ResourceTemplate(TEMPLATE.leads, {
      list: kit.forDefault('leads:read', (ws) => ({ uri: URI.leads(ws), name: `leads-${ws}`, title: `Newest leads of ${ws}`, mimeType: JSON_TYPE })),
      complete: kit.workspaceOnly,
    }),
    {
      title: 'Newest leads',
      description: `The ${LISTED_LEADS} leads with the newest messages, as JSON; subscribe to hear of new replies and changed leads. Text leads wrote is fenced as untrusted.`,
      mimeType: JSON_TYPE,
    },
    kit.guarded('leads resource', async (uri, vars, extra) => {
      const ws = workspaceOr(access, one(vars.workspace));
      const r = await access.api.call('list_leads', { path: { workspace: ws }, query: { limit: LISTED_LEADS }, signal: extra.signal });
      const rows = ((r.data as { data: Row[] }).data ?? []).map((l) => Object.fromEntries(LEADS_FIELDS.filter((f) => f in l).map((f) => [f, l[f]])));
      const fence = new Fence();
      const body = (v: Row[]) => JSON.stringify({ note: UNTRUSTED_NOTE, workspace: ws, leads: fenceDeep(dropEmpty(v), fence) });
      // A lead with a 30,000-character name has its long fields shortened rather than failing the whole read.
      const fitted = within(body(rows), kit.budget()) ? rows : (shortenToFit(rows, (v) => within(body(v), kit.budget())) ?? rows);
      return text(uri, JSON_TYPE, withinBudget(body(fitted), kit.budget(), 'leads resource'));
    }),
  );
}

/** A lead in resources/list: our facts only in the title; what the lead wrote stays out of listings. */
export function leadEntry(ws: string, l: Row): Resource {
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
