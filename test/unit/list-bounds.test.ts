import { describe, expect, it } from 'vitest';
import { checkedInputSchema } from '../../src/mcp/declare/publish.js';
import { ALL_TOOLS } from '../../tools/index.js';

/** Every array in a JSON schema without maxItems, by its path. */
function unbounded(schema: unknown, path: string): string[] {
  if (!schema || typeof schema !== 'object') return [];
  const s = schema as Record<string, unknown>;
  const own = s.type === 'array' && typeof s.maxItems !== 'number' ? [path] : [];
  return [...own, ...Object.entries(s).flatMap(([k, v]) => unbounded(v, `${path}.${k}`))];
}

describe('Bounds on every list argument: each array a tool takes has a most-items bound, checked before anything is sent', () => {
  it('no tool takes an array without maxItems (query lists, id lists, body arrays, field lists)', () => {
    expect(ALL_TOOLS.flatMap((t) => unbounded(checkedInputSchema(t), t.name))).toEqual([]);
  });

  it('list_leads takes at most 100 assignee ids, as it takes at most 100 lead tag ids', () => {
    const props = checkedInputSchema(ALL_TOOLS.find((t) => t.name === 'list_leads')!).properties as Record<string, { maxItems?: number }>;
    expect(props.assignee_id!.maxItems).toBe(100);
    expect(props.lead_tag_id!.maxItems).toBe(100);
  });
});
