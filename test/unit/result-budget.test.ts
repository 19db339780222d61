import { describe, expect, it } from 'vitest';
import { ApiError } from '../../src/client/errors.js';
import { errorResult } from '../../src/mcp/errors.js';
import { Fence } from '../../src/mcp/view/fence.js';
import { pageTable } from '../../src/mcp/view/lines.js';
import type { ToolOutput } from '../../src/mcp/view/output.js';
import { byteLength, cutToBudget, fitResult } from '../../src/mcp/view/result-budget.js';

const BUDGET = 24_576;
type Row = Record<string, unknown>;
const lead = (i: number, name = `Lead ${i}`): Row => ({ id: `lead_${i}`, status: 'interested', first_name: name, body_preview: 'Sounds good, send pricing.' });
const page = (data: Row[]): ToolOutput => ({
  structured: { object: 'list', data, has_more: true, next_cursor: 'cur_end' },
  render: (s, fence) => pageTable(s as { data: Row[] }, fence, 'lead', 'lead'),
  items: { key: 'data', keep: 'head' },
});
const fitPage = (out: ToolOutput, rest: Row | null = { cursor: 'cur_x' }) =>
  fitResult(out, { budget: BUDGET, fence: new Fence(), tool: 'list_leads', rest: async () => rest });
const sizes = (p: { text: string; structured: Row }) => [byteLength(p.text), byteLength(JSON.stringify(p.structured))];

describe('Results over the budget: one long item is shortened rather than the page given up', () => {
  it('the newest lead with a 30,000-character name: the whole page of 50 is shown, that name shortened, both forms within the budget', async () => {
    const data = [lead(0, 'N'.repeat(30_000)), ...Array.from({ length: 49 }, (_, i) => lead(i + 1))];
    const p = await fitPage(page(data));
    for (const b of sizes(p)) expect(b).toBeLessThanOrEqual(BUDGET);
    const shown = p.structured.data as Row[];
    expect(shown).toHaveLength(50);
    expect(String(shown[0]!.first_name)).toMatch(/…<\/untrusted-[0-9a-f]+>$/);
    expect(p.structured.shortened).toEqual({ items: 1 });
    expect(p.text).toContain('1 item had long text fields shortened');
    expect(p.text).not.toContain('cursor "null"');
  });

  it('a single record over the budget is shortened, not refused', async () => {
    const p = await fitResult({ structured: lead(1, 'N'.repeat(30_000)) }, { budget: BUDGET, fence: new Fence(), tool: 'get_lead', rest: async () => null });
    for (const b of sizes(p)) expect(b).toBeLessThanOrEqual(BUDGET);
    expect(p.structured.shortened).toEqual({ items: 1 });
  });

  it('a page with no cursor for its rest never says pass cursor "null"', () => {
    expect(pageTable({ data: [lead(1)], has_more: true, next_cursor: null }, new Fence(), 'lead', 'lead')).not.toContain('"null"');
  });
});

describe("Results over the budget: a cut list's fetch_rest does not repeat unbounded arguments", () => {
  it('an assignee_id filter of 2,000 ids is named "as in this call", not repeated; the text stays within the budget', async () => {
    const data = Array.from({ length: 200 }, (_, i) => lead(i, `Person ${i} ${'x'.repeat(200)}`));
    const ids = Array.from({ length: 2_000 }, (_, i) => `usr_member${i}_acme`);
    const p = await fitPage(page(data), { assignee_id: ids, view: 'full', cursor: 'cur_after' });
    for (const b of sizes(p)) expect(b).toBeLessThanOrEqual(BUDGET);
    const left = p.structured.left_out as { fetch_rest: Row; same_as_this_call: string[] };
    expect(left.fetch_rest).toEqual({ view: 'full', cursor: 'cur_after' });
    expect(left.same_as_this_call).toEqual(['assignee_id']);
    expect(p.text).toContain('call list_leads with {"view":"full","cursor":"cur_after"} and assignee_id as in this call');
  });
});

describe('Results over the budget: errors and text resources', () => {
  it('a 2 MB API error message becomes a tool error of a few KB', () => {
    const err = new ApiError({ status: 500, code: 'internal_error', message: 'E'.repeat(2_000_000), endpoint: 'list_leads', param: 'p'.repeat(10_000) });
    const r = errorResult(err, 'list_leads');
    const text = (r.content[0] as { text: string }).text;
    expect(byteLength(text)).toBeLessThan(4_096);
    expect(text).toContain('more characters left out');
  });

  it('a 300 KB playbook is cut at a line within the budget and says so', () => {
    const body = Array.from({ length: 7_000 }, (_, i) => `Rule ${i}: answer within the hour, offer a call.`).join('\n');
    expect(byteLength(body)).toBeGreaterThan(300_000);
    const cut = cutToBudget(body, BUDGET, 'playbook');
    expect(byteLength(cut)).toBeLessThanOrEqual(BUDGET);
    expect(cut).toMatch(/Rule \d+: answer within the hour, offer a call\.\n\n\[The playbook is \d+ bytes: the first \d+ are shown/);
    expect(cutToBudget('short', BUDGET, 'playbook')).toBe('short');
  });
});
