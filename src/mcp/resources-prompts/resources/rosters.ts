import { ResourceTemplate } from '@modelcontextprotocol/server';
import type { ListEndpointName } from '../../../api/endpoints.js';
import { readPages } from '../../reads/multipage.js';
import { MAX_ITEMS_BOUND } from '../../declare/shared-args.js';
import { TEMPLATE, URI } from '../../view/links.js';
import { withinBudget } from '../../view/result-budget.js';
import { workspaceOr } from '../access.js';
import { budgetOf, JSON_TYPE, one, type ResourceKit, text } from './kit.js';

interface Roster {
  name: string;
  template: string;
  uri: (ws: string) => string;
  scope: string;
  endpoint: ListEndpointName;
  title: string;
  listTitle: string;
  description: string;
}

const ROSTERS: readonly Roster[] = [
  {
    name: 'members',
    template: TEMPLATE.members,
    uri: URI.members,
    scope: 'members:read',
    endpoint: 'list_members',
    title: 'Workspace members',
    listTitle: 'Members of',
    description: 'The people of a workspace with their two-part member ids, roles and whether they can be assigned leads, as JSON.',
  },
  {
    name: 'lead-tags',
    template: TEMPLATE.leadTags,
    uri: URI.leadTags,
    scope: 'leads:read',
    endpoint: 'list_lead_tags',
    title: 'Lead tag roster',
    listTitle: 'Lead tags of',
    description: "The workspace's manual lead tags (ltg_ ids and names) for set_lead_tags and the lead_tag_id filter, as JSON.",
  },
];

/** A workspace roster read whole (every page) as JSON: members, lead tags. */
export function registerRosters(kit: ResourceKit): void {
  for (const r of ROSTERS) {
    kit.mcp.registerResource(
      r.name,
      new ResourceTemplate(r.template, {
        list: kit.forWorkspaces(r.scope, (ws) => ({ uri: r.uri(ws), name: `${r.name}-${ws}`, title: `${r.listTitle} ${ws}`, mimeType: JSON_TYPE })),
        complete: kit.workspaceOnly,
      }),
      { title: r.title, description: r.description, mimeType: JSON_TYPE },
      kit.guarded(`${r.name} resource`, async (uri, vars, extra, { access }) => {
        const ws = workspaceOr(access, one(vars.workspace));
        const list = await readPages(access.api.send, r.endpoint, { path: { workspace: ws } }, { maxItems: MAX_ITEMS_BOUND, signal: extra.signal });
        return text(uri, JSON_TYPE, withinBudget(JSON.stringify({ workspace: ws, ...list }), budgetOf(access), 'list resource'));
      }),
    );
  }
}
