import { beforeAll, describe, expect, it } from 'vitest';
import { everyToolCovered, firstId, type InvalidCall, toolArea } from '../test/helpers/tool-area.js';

/** The insights tools (tools/insights.ts), served in process: valid calls, then one invalid call each. */
const area = toolArea('insights');
const ids = { campaign: '' };
beforeAll(async () => {
  ids.campaign = await firstId(area, 'list_campaigns');
});

describe('Insights: summary, campaign figures, daily series', () => {
  it('get_insights_summary for a 30-day window', async () => {
    const { structured } = await area.ok('get_insights_summary', { from: '2026-10-21', to: '2026-11-20' });
    expect(structured.object).toBe('insights_summary');
    expect(structured.workspace).toBe('acme');
    expect(Object.keys(structured.funnel).sort()).toEqual(['all_responses', 'booked_meetings', 'positive_responses', 'showed_meetings']);
  });
  it('get_campaign_insights for one campaign', async () => {
    const { structured } = await area.ok('get_campaign_insights', { campaign_id: ids.campaign, from: '2026-10-21', to: '2026-11-20' });
    expect(structured.data.map((c: any) => c.campaign_id)).toEqual([ids.campaign]);
  });
  it('get_daily_insights: a dense series, one point per day', async () => {
    const { structured } = await area.ok('get_daily_insights', { from: '2026-11-01', to: '2026-11-20' });
    const dates = structured.data.map((p: any) => p.date).sort();
    expect(dates).toHaveLength(20);
    expect(dates[0]).toBe('2026-11-01');
    expect(dates[19]).toBe('2026-11-20');
  });
});

const INVALID: InvalidCall[] = [
  ['get_insights_summary', { member_id: 'ada' }, 'invalid_id', 'member_id'],
  ['get_campaign_insights', { from: '2026-02-30' }, 'invalid_request', 'from'],
  ['get_daily_insights', { metric: 'opens' }, 'invalid_request', 'metric'],
];

everyToolCovered(area, INVALID);
