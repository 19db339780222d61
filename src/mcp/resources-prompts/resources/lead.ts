import { ResourceTemplate } from '@modelcontextprotocol/server';
import { Fence, UNTRUSTED_NOTE } from '../../view/fence.js';
import { TEMPLATE } from '../../view/links.js';
import { withinBudget } from '../../view/result-budget.js';
import { dropEmpty, fenceDeep } from '../../view/shape.js';
import { leadIdOf, workspaceOr } from '../access.js';
import { budgetOf, JSON_TYPE, LISTED_LEADS, one, type ResourceKit, text } from './kit.js';
import { leadEntry } from './leads.js';

const LEAD_EXPANSIONS = ['assignees', 'open_tasks', 'tags'] as const;

/** inbox://{workspace}/leads/{lead}: one lead with its assignees, open tasks and tags. */
export function registerLead(kit: ResourceKit): void {
  const { mcp } = kit;
  mcp.registerResource(
    'lead',
    new ResourceTemplate(TEMPLATE.lead, {
      list: kit.forWorkspaces('leads:read', async (ws, access) => {
        const r = await access.api.call('list_leads', { path: { workspace: ws }, query: { limit: LISTED_LEADS } });
        return (r.data.data ?? []).map((l) => leadEntry(ws, l));
      }),
      complete: kit.leadVars,
    }),
    {
      title: 'Lead',
      description: 'One lead as JSON with its assignees, open tasks and tags; text the lead wrote is fenced as untrusted.',
      mimeType: JSON_TYPE,
    },
    kit.guarded('lead resource', async (uri, vars, extra, { access }) => {
      const ws = workspaceOr(access, one(vars.workspace));
      const lead = leadIdOf(one(vars.lead));
      const r = await access.api.call('get_lead', { path: { workspace: ws, lead_id: lead }, query: { expand: [...LEAD_EXPANSIONS] }, signal: extra.signal });
      const fenced = fenceDeep(dropEmpty(r.data), new Fence());
      return text(uri, JSON_TYPE, withinBudget(JSON.stringify({ note: UNTRUSTED_NOTE, lead: fenced }), budgetOf(access), 'lead resource'));
    }),
  );
}
