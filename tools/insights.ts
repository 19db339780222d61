import { defineTool, listOf, objectOf } from '../src/mcp/tool-kit.js';
import { APPROXIMATE, NOT_COMPUTED, runSummary } from './support/approximate.js';

const WINDOW = { from: 'Window start: day or date-time.', to: 'Window end: day or date-time.' };

export const insightTools = [
  defineTool({
    endpoint: 'get_insights_summary',
    title: 'Pipeline summary',
    description:
      'Funnel, headline rates, speed to lead and per-rep figures for at most 366 days (default: the last 30), optionally for one rep. Rates are ratios in [0,1]. Needs insights:read.',
    docs: { ...WINDOW, from: 'Window start (default: 30 days before to).' },
    output: objectOf('insights_summary').extend({ ...APPROXIMATE, ...NOT_COMPUTED }),
    run: runSummary,
  }),
  defineTool({
    endpoint: 'get_campaign_insights',
    title: 'Campaign figures',
    description:
      'Per campaign: sent, contacts, replies, interested, bounced, booked, showed, per step too, for at most 366 days. Costs one upstream call per page.',
    docs: WINDOW,
    output: listOf('campaign_insight'),
  }),
  defineTool({
    endpoint: 'get_daily_insights',
    title: 'Daily activity series',
    description:
      'Day-by-day series (UTC, quiet days zero) of emails sent, responses, positive responses or meetings booked, for at most 120 days. Costs one upstream call per page.',
    docs: { from: 'First day.', to: 'Last day (at most 120 after from).' },
    output: listOf('daily_point'),
  }),
];
