import { defineTool, listOf } from '../src/mcp/tool-kit.js';

export const campaignTools = [
  defineTool({
    endpoint: 'list_sequences',
    title: 'List follow-up sequences',
    description: 'Follow-up sequences with steps (type, delay, template), send days and visibility.',
    docs: { expand: "templates: embed each step's template." },
    output: listOf('sequence'),
  }),
  defineTool({
    endpoint: 'list_campaigns',
    title: 'List campaigns',
    description:
      'The live campaign roster from the sending platform, with tags; cached 60 seconds (the answer gives its age). Costs one upstream call when not cached.',
    output: listOf('campaign'),
  }),
  defineTool({
    endpoint: 'list_campaign_tags',
    title: 'List campaign tags',
    description: 'Campaign tags with how many campaigns carry each. Costs one upstream call.',
    output: listOf('campaign_tag'),
  }),
];
