import { ResourceTemplate } from '@modelcontextprotocol/server';
import type { Resource } from '@modelcontextprotocol/server';
import { type ToolEndpointName, endpoint } from '../../../api/endpoints.js';
import { Continuation } from '../../reads/continuation.js';
import { Fence, UNTRUSTED_NOTE } from '../../view/fence.js';
import { TEMPLATE, URI } from '../../view/links.js';
import { shortenToFit, within, withinBudget } from '../../view/result-budget.js';
import { dropEmpty, fenceDeep } from '../../view/shape.js';
import { workspaceOr } from '../access.js';
import { budgetOf, JSON_TYPE, LISTED_LEADS, one, type ResourceKit, type Row, text } from './kit.js';

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

/** A list_leads page as the leads resources show it. */
export interface LeadsPage {
  data: Row[];
  has_more?: boolean;
  next_cursor?: string | null;
}

/** The rows of a page with the fields the leads resources show. */
export const leadRows = (page: LeadsPage): Row[] => (page.data ?? []).map((l) => Object.fromEntries(LEADS_FIELDS.filter((f) => f in l).map((f) => [f, l[f]])));

/** The resource's JSON: the note, the rows (outside text fenced) and what the view adds around them. */
export function leadsBody(ws: string, rows: Row[], around: Row = {}): string {
  const fence = new Fence();
  return JSON.stringify({ note: UNTRUSTED_NOTE, workspace: ws, ...around, leads: fenceDeep(dropEmpty(rows), fence) });
}

/** The newest last_message_at of some rows: a later read asks for what came after it. */
export const newestOf = (rows: Row[]): string | null =>
  rows.reduce<string | null>(
    (n, r) => (typeof r.last_message_at === 'string' && (n === null || Date.parse(r.last_message_at) > Date.parse(n)) ? r.last_message_at : n),
    null,
  );

/** Room kept for a cursor longer than the page's own. */
const CURSOR_ROOM = 64;

/** inbox://{workspace}/leads: the newest leads as JSON, the one a live inbox subscribes to. */
export function registerLeads(kit: ResourceKit): void {
  const { mcp } = kit;
  mcp.registerResource(
    'leads',
    new ResourceTemplate(TEMPLATE.leads, {
      list: kit.forWorkspaces('leads:read', (ws) => ({ uri: URI.leads(ws), name: `leads-${ws}`, title: `Newest leads of ${ws}`, mimeType: JSON_TYPE })),
      complete: kit.workspaceOnly,
    }),
    {
      title: 'Newest leads',
      description: `The ${LISTED_LEADS} leads with the newest messages, as JSON; subscribe to hear of new replies and changed leads, then read its "changes" URI for only the leads with a newer message. Text leads wrote is fenced as untrusted.`,
      mimeType: JSON_TYPE,
    },
    kit.guarded('leads resource', async (uri, vars, extra, { access }) => {
      const ws = workspaceOr(access, one(vars.workspace));
      const req = { path: { workspace: ws }, query: { limit: LISTED_LEADS } };
      const cont = new Continuation(endpoint('list_leads'), access.api.send);
      cont.sent(req);
      const page: LeadsPage = (await access.api.call('list_leads', { ...req, signal: extra.signal })).data;
      const rows = leadRows(page);
      const body = (v: Row[], older: string | null | undefined) => {
        const newest = newestOf(v);
        const leftOut = rows.length - v.length;
        return leadsBody(ws, v, {
          // After a notification, this reads only the leads with a newer message than these.
          ...(newest ? { changes: URI.leadsSince(ws, newest) } : {}),
          ...(leftOut > 0 ? { left_out: { count: leftOut, budget_bytes: budgetOf(access) } } : {}),
          ...(older ? { older: { tool: 'list_leads' satisfies ToolEndpointName, arguments: { workspace: ws, cursor: older } } } : {}),
        });
      };
      const more = page.has_more && page.next_cursor ? page.next_cursor : null;
      if (within(body(rows, more), budgetOf(access))) return text(uri, JSON_TYPE, body(rows, more));
      // As many whole leads as fit (the cursor after them sized as the page's own), and older starts at the first left out.
      const room = budgetOf(access) - CURSOR_ROOM;
      let k = Math.max(1, rows.length - 1);
      while (k > 1 && !within(body(rows.slice(0, k), more ?? ''), room)) k--;
      const older = k < rows.length ? await cont.cursorAfter(k, extra.signal) : more;
      const kept = rows.slice(0, k);
      // A lead with a 30,000-character name has its long fields shortened rather than failing the whole read.
      const fitted = within(body(kept, older), budgetOf(access)) ? kept : (shortenToFit(kept, (v) => within(body(v, older), budgetOf(access))) ?? kept);
      return text(uri, JSON_TYPE, withinBudget(body(fitted, older), budgetOf(access), 'leads resource'));
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
