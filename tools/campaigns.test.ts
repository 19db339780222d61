import { describe, expect, it } from 'vitest';
import { everyToolCovered, type InvalidCall, toolArea } from '../test/helpers/tool-area.js';

/** The campaigns tools (tools/campaigns.ts), served in process: valid calls, then one invalid call each. */
const area = toolArea('campaigns');
const ids = { campaign: '' };

describe('Campaigns and sequences', () => {
  it('list_sequences with expanded templates', async () => {
    const { structured } = await area.ok('list_sequences', { expand: ['templates'] });
    expect(structured.data.length).toBeGreaterThan(0);
    for (const s of structured.data) expect(Array.isArray(s.steps)).toBe(true);
  });
  it('list_campaigns: the roster with tags', async () => {
    const { structured } = await area.ok('list_campaigns', {});
    expect(structured.data.length).toBeGreaterThan(0);
    for (const c of structured.data) expect(c.id).toMatch(/^cmp_/);
    ids.campaign = structured.data[0].id;
  });
  it('list_campaign_tags: tags with campaign counts', async () => {
    const { structured } = await area.ok('list_campaign_tags', {});
    expect(structured.data.length).toBeGreaterThan(0);
    for (const t of structured.data) expect(Number.isInteger(t.campaign_count)).toBe(true);
  });
});

const INVALID: InvalidCall[] = [
  ['list_sequences', { visibility: 'public' }, 'invalid_request', 'visibility'],
  ['list_campaigns', { limit: 2.5 }, 'invalid_request', 'limit'],
  ['list_campaign_tags', { cursor: 7 }, 'invalid_request', 'cursor'],
];

everyToolCovered(area, INVALID);
