import { defineTool } from '../src/mcp/runtime/tool.js';
import { listOf } from '../src/mcp/runtime/outputs.js';

export const campaignTools = [
  defineTool({
    endpoint: 'list_sequences',
    title: 'List follow-up sequences',
    description: 'Follow-up sequences with their steps (type, delay, template), send days and visibility. Filter by active and visibility. Costs one read per page.',
    docs: { expand: 'templates: embed each step\'s template.' },
    output: listOf('sequence'),
  }),
  defineTool({
    endpoint: 'list_campaigns',
    title: 'List campaigns',
    description:
      'The live campaign roster from the sending platform, with tags. The service caches it for 60 seconds per workspace and so does this server (the answer says its age). Costs one call of the scarce upstream bucket (10 per minute) when not cached.',
    output: listOf('campaign'),
  }),
  defineTool({
    endpoint: 'list_campaign_tags',
    title: 'List campaign tags',
    description: 'Campaign tags with how many campaigns carry each. Costs one call of the upstream bucket (10 per minute).',
    output: listOf('campaign_tag'),
  }),
];
