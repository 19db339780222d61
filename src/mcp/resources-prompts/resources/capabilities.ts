import { URI } from '../../view/links.js';
import { withinBudget } from '../../view/result-budget.js';
import { budgetOf, JSON_TYPE, type ResourceKit, text } from './kit.js';

/** inbox://capabilities: the API's live enums, limits, filters and expansions. */
export function registerCapabilities(kit: ResourceKit): void {
  const read = kit.guarded('capabilities resource', async (uri, _vars, extra, { access }) => {
    const r = await access.api.call('get_capabilities', { signal: extra.signal });
    return text(uri, JSON_TYPE, withinBudget(JSON.stringify(r.data), budgetOf(access), 'capabilities resource'));
  });
  kit.mcp.registerResource(
    'capabilities',
    URI.capabilities,
    { title: 'API capabilities', description: 'The live enums, limits, filters and expansions of the Reply Inbox API, as JSON.', mimeType: JSON_TYPE },
    (uri, ctx) => read(uri, {}, ctx),
  );
}
