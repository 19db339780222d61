import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { defineTool } from '../../src/mcp/declare/define.js';

/** A tool spec that counts how often its schemas' parts are read. */
function counted() {
  const reads = { override: 0, output: 0 };
  const output = z.object({ data: z.object({ id: z.string(), note: z.string().nullable() }) });
  const spec = {
    endpoint: 'get_lead' as const,
    title: 'Lead',
    description: 'One lead.',
    get override() {
      reads.override++;
      return {};
    },
    get output() {
      reads.output++;
      return output;
    },
  };
  return { reads, tool: defineTool(spec) };
}

describe('A tool builds its input and output schemas on first use, once (not at start)', () => {
  it('defining a tool reads neither schema part', () => {
    const { reads } = counted();
    expect(reads).toEqual({ override: 0, output: 0 });
  });

  it('the first read builds a schema, later reads return that same schema', () => {
    const { reads, tool } = counted();
    const input = tool.input;
    const output = tool.output;
    expect(Object.keys(input.shape)).toEqual(expect.arrayContaining(['workspace', 'lead_id']));
    const built = { ...reads };
    expect(built.override).toBeGreaterThan(0);
    expect(built.output).toBeGreaterThan(0);
    expect([tool.input, tool.output]).toEqual([input, output]);
    expect(tool.input).toBe(input);
    expect(tool.output).toBe(output);
    expect(reads).toEqual(built);
    // Built as before: a nullable field the result may drop is optional.
    expect(output.safeParse({ data: { id: 'lead_1' } }).success).toBe(true);
  });
});
