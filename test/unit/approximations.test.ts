import type { CallToolResult } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import { useInProcessServer } from '../helpers/in-process.js';

const server = useInProcessServer();

type Row = Record<string, any>;
async function call(name: string, args: Row) {
  const r = (await server.client.callTool({ name, arguments: args })) as CallToolResult;
  expect(r.isError, JSON.stringify(r.content).slice(0, 300)).toBeFalsy();
  return { text: (r.content[0] as { text: string }).text, structured: r.structuredContent as Row };
}

/** Every sentence of a list field is in the text too: the same words in both forms. */
function inBoth(r: { text: string; structured: Row }, key: string): string[] {
  const said = r.structured[key] as string[];
  expect(Array.isArray(said) && said.length > 0, `${key} in structuredContent`).toBe(true);
  for (const s of said) expect(r.text).toContain(s);
  return said;
}

describe('spec (insights_summary): per-rep rates are approximate; speed-to-lead counts only cover the period since the feature began', () => {
  it('both are marked in both forms', async () => {
    const r = await call('get_insights_summary', { from: '2026-11-19', to: '2026-11-20' });
    const said = inBoth(r, 'approximate');
    expect(said.some((s) => /^per_rep show_rate and booking_rate are approximate/.test(s))).toBe(true);
    expect(said.some((s) => /speed_to_lead.*since the speed-to-lead feature began/.test(s))).toBe(true);
  });

  it('a show rate with no meeting with an outcome says why, in both forms, instead of being dropped', async () => {
    // Issue 30: headline.show_rate was absent, and the agent had to infer why from meetings_with_outcome 0.
    const r = await call('get_insights_summary', { from: '2026-11-19', to: '2026-11-20' });
    expect(r.structured.headline.meetings_with_outcome).toBe(0);
    expect(r.structured.headline.show_rate).toBeUndefined();
    const why = inBoth(r, 'not_computed');
    expect(why).toContain('headline show_rate: no meeting has an outcome (meetings_with_outcome 0).');
    // Each rep without a show rate is named with the reason.
    const reps = (r.structured.per_rep as Row[]).filter((p) => p.show_rate === undefined && p.meetings_with_outcome === 0).map((p) => p.member_id);
    expect(why).toContain(`per_rep show_rate of ${reps.join(', ')}: none of their meetings has an outcome (meetings_with_outcome 0).`);
  });
});

describe('spec (lead): a campaign_id filter misses leads from roughly the last 15 minutes', () => {
  it('a page read with campaign_id says so in both forms, with leads or without; a page without the filter does not', async () => {
    const campaign = server.sb.store.campaigns.inGroup('acme')[0]!.id;
    for (const args of [
      { campaign_id: campaign },
      { campaign_id: campaign, view: 'full' },
      { campaign_id: campaign, updated_before: '2000-01-01T00:00:00Z' },
    ]) {
      const r = await call('list_leads', args);
      expect(inBoth(r, 'approximate')).toEqual([expect.stringMatching(/^campaign_id: leads of roughly the last 15 minutes/)]);
    }
    expect((await call('list_leads', {})).structured.approximate).toBeUndefined();
  });
});

describe("spec (meeting): times can lag a change on the host's calendar by up to 15 minutes", () => {
  it('list_meetings and get_meeting say so in both forms', async () => {
    const page = await call('list_meetings', { limit: 2 });
    inBoth(page, 'approximate');
    const one = await call('get_meeting', { meeting_id: page.structured.data[0].id });
    expect(inBoth(one, 'approximate')).toEqual(page.structured.approximate);
  });
});
