import { DAILY_METRICS, LIMITS } from '../enums.js';
import { p } from '../params.js';
import { WS, type EndpointRow, type WindowRule } from './row.js';

/** Insights: "a window over the cap gives 400 invalid_request (never silently truncated)"; defaults are ours (docs/spec-gaps.md). */
const insightsWindow = (maxDays: number, unit: WindowRule['unit']): WindowRule => ({
  maxDays,
  over: 'refuse',
  unit,
  defaultDays: 30,
  runs: 'back',
  blame: 'from',
});

/** The endpoint table, insights: each row bounds its from/to window. */
export const INSIGHT_ROWS = [
  {
    name: 'get_insights_summary',
    toolset: 'insights',
    method: 'GET',
    path: `${WS}/insights/summary`,
    scope: 'insights:read',
    bucket: 'read',
    query: { from: p.dayOrDateTime(), member_id: p.id('member'), to: p.dayOrDateTime() },
    window: insightsWindow(LIMITS.insights_window_days, 'instant'),
    returns: 'object',
    resource: 'insights_summary',
    errors: ['invalid_request'],
  },
  {
    name: 'get_campaign_insights',
    toolset: 'insights',
    method: 'GET',
    path: `${WS}/insights/campaigns`,
    scope: 'insights:read',
    bucket: 'upstream',
    query: { campaign_id: p.id('campaign'), cursor: p.cursor(), from: p.dayOrDateTime(), limit: p.limit(), to: p.dayOrDateTime() },
    window: insightsWindow(LIMITS.insights_window_days, 'instant'),
    returns: 'list',
    resource: 'campaign_insight',
    errors: ['invalid_cursor', 'invalid_request', 'not_found', 'upstream_error'],
  },
  {
    name: 'get_daily_insights',
    toolset: 'insights',
    method: 'GET',
    path: `${WS}/insights/daily`,
    scope: 'insights:read',
    bucket: 'upstream',
    query: { cursor: p.cursor(), from: p.day(), limit: p.limit(), to: p.day(), metric: p.oneOf(DAILY_METRICS) },
    window: insightsWindow(LIMITS.daily_window_days, 'day'),
    returns: 'list',
    resource: 'daily_point',
    errors: ['invalid_request', 'unsupported_filter', 'upstream_error'],
  },
] as const satisfies readonly EndpointRow[];
