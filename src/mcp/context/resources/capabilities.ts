import { URI } from '../../view/links.js';
import { withinBudget } from '../../view/result-budget.js';
import { JSON_TYPE, type ResourceKit, text } from './kit.js';

/** inbox://capabilities: the API's live enums, limits, filters and expansions. */
export function registerCapabilities(kit: ResourceKit): void {
  kit.mcp.registerResource(
    'capabilities',
    URI.capabilities,
    { title: 'API capabilities', description: 'The live enums, limits, filters and expansions of the Reply Inbox API, as JSON.', mimeType: JSON_TYPE },
    (uri, extra) =>
      kit.guarded('capabilities resource', async () => {
        const r = await kit.access.api.call('get_capabilities', { signal: extra.signal });
        return text(uri, JSON_TYPE, withinBudget(JSON.stringify(r.data), kit.budget(), 'capabilities resource'));
      })(uri, {}, extra),
  );
}
