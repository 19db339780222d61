import { defineTool } from '../src/mcp/runtime/tool.js';
import { listOf, objectOf } from '../src/mcp/runtime/outputs.js';

const WINDOW = { from: 'Window start: YYYY-MM-DD or ISO date-time.', to: 'Window end: YYYY-MM-DD or ISO date-time.' };

export const insightTools = [
  defineTool({
    endpoint: 'get_insights_summary',
    title: 'Pipeline summary',
    description:
      'Funnel (responses, positive responses, booked and showed meetings), headline rates, speed to lead and per-rep figures for a window of at most 366 days (default: the last 30 days), optionally for one rep. Rates are ratios in [0,1]; per-rep rates are approximate. Needs insights:read (admins). Costs one read.',
    docs: { ...WINDOW, from: 'Window start (default: 30 days before to).' },
    output: objectOf('insights_summary'),
  }),
  defineTool({
    endpoint: 'get_campaign_insights',
    title: 'Campaign figures',
    description:
      'Per campaign: emails sent, contacts, replies, interested, bounced, booked and showed, with per-step sends and replies, for a window of at most 366 days. Costs one call of the scarce upstream bucket (10 per minute) per page.',
    docs: WINDOW,
    output: listOf('campaign_insight'),
  }),
  defineTool({
    endpoint: 'get_daily_insights',
    title: 'Daily activity series',
    description:
      'A dense day-by-day series (UTC days; quiet days are zeros) of emails sent, responses, positive responses and meetings booked, for a window of at most 120 days. Costs one call of the scarce upstream bucket (10 per minute) per page.',
    docs: { from: 'First day, YYYY-MM-DD.', to: 'Last day, YYYY-MM-DD (at most 120 days after from).' },
    output: listOf('daily_point'),
  }),
];
