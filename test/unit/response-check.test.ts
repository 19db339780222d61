import { describe, expect, it } from 'vitest';
import { InvalidResponseError } from '../../src/mcp/errors.js';
import { checkOutput, checkedApi } from '../../src/mcp/pipeline/response-check.js';
import { ALL_TOOLS } from '../../tools/index.js';

const listLeads = ALL_TOOLS.find((t) => t.name === 'list_leads')!;
const page = (data: unknown[]) => ({ object: 'list', data, has_more: false, next_cursor: null });

describe('response checks (compiled once, same rules)', () => {
  it('a result that fits its output schema passes, again and again', () => {
    for (let i = 0; i < 3; i++)
      expect(() => checkOutput(listLeads.endpoint, listLeads.output, page([{ object: 'lead', id: 'l_1', unread: true }]))).not.toThrow();
  });

  it('a result off its output schema is refused, naming the field', () => {
    const bad = () => checkOutput(listLeads.endpoint, listLeads.output, page([{ object: 'lead', id: 7 }]));
    expect(bad).toThrow(InvalidResponseError);
    expect(bad).toThrow(/data\.0\.id/);
    expect(() => checkOutput(listLeads.endpoint, listLeads.output, { ...page([]), has_more: 'no' })).toThrow(/has_more/);
  });

  it('an API answer off its endpoint schema is refused before a tool sees it', async () => {
    const api = checkedApi({ call: async () => ({ data: page([{ object: 'lead' }]) }) as never });
    await expect(api.call('list_leads', { path: { workspace: 'acme' } })).rejects.toThrow(/list_leads.*data\.0/);
    const good = checkedApi({ call: async () => ({ data: { object: 'list', data: [], has_more: false, next_cursor: null } }) as never });
    await expect(good.call('list_leads', { path: { workspace: 'acme' } })).resolves.toBeTruthy();
  });
});
