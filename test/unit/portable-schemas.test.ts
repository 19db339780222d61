import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { publishedTool } from '../../src/mcp/declare/publish.js';
import { portableSchema } from '../../src/mcp/declare/portable.js';
import { ALL_TOOLS } from '../../tools/index.js';

/**
 * The two findings of the MCP Inspector's schema portability check that our schemas could
 * raise (test/ship/inspector.test.ts runs the check itself on the built server): a `type`
 * array, and a schema with no validation keyword. Collected here over every published tool.
 */
const CONSTRAINING =
  /^(type|enum|const|multipleOf|maximum|exclusiveMaximum|minimum|exclusiveMinimum|maxLength|minLength|pattern|format|required|items|properties|additionalProperties|anyOf|allOf|oneOf|not|\$ref|prefixItems|contains|patternProperties|propertyNames|minItems|maxItems|uniqueItems|minProperties|maxProperties)$/;
const SUBSCHEMA = new Set(['items', 'additionalProperties', 'not', 'contains', 'propertyNames']);

function findings(node: unknown, path: string, keyword?: string): string[] {
  if (typeof node !== 'object' || node === null || Array.isArray(node)) return [];
  const s = node as Record<string, unknown>;
  const out: string[] = [];
  if (Array.isArray(s.type)) out.push(`${path}: type ${JSON.stringify(s.type)}`);
  if (keyword !== 'not' && !Object.keys(s).some((k) => CONSTRAINING.test(k))) out.push(`${path}: no keyword`);
  for (const [k, v] of Object.entries(s)) {
    if (k === 'properties' && typeof v === 'object' && v) for (const [n, sub] of Object.entries(v)) out.push(...findings(sub, `${path}.${n}`, k));
    if (SUBSCHEMA.has(k)) out.push(...findings(v, `${path}.${k}`, k));
    if (['anyOf', 'allOf', 'oneOf'].includes(k) && Array.isArray(v)) for (const [i, sub] of v.entries()) out.push(...findings(sub, `${path}.${k}[${i}]`, k));
  }
  return out;
}

describe('published schemas are portable: no type arrays, no empty schemas, in inputs and outputs', () => {
  it.each(ALL_TOOLS.map((t) => [t.name, publishedTool(t)] as const))('%s', (name, p) => {
    expect(findings(p.inputSchema, `${name}.inputSchema`)).toEqual([]);
    expect(findings(p.outputSchema, `${name}.outputSchema`)).toEqual([]);
  });

  it('a nullable argument is anyOf a typed branch and null, its description outside', () => {
    const p = publishedTool(ALL_TOOLS.find((t) => t.name === 'update_task')!);
    const notes = (p.inputSchema.properties as Record<string, unknown>).notes;
    expect(notes).toEqual({ description: expect.any(String), anyOf: [{ type: 'string' }, { type: 'null' }] });
  });
});

describe('portableSchema rewrites without changing what is accepted', () => {
  it('type arrays become anyOf with the constraints in the typed branch', () => {
    expect(portableSchema({ type: ['string', 'null'], format: 'date', description: 'd' })).toEqual({
      description: 'd',
      anyOf: [{ type: 'string', format: 'date' }, { type: 'null' }],
    });
    expect(portableSchema({ type: ['integer'] })).toEqual({ type: 'integer' });
  });

  it("an open object's empty additionalProperties is true; an empty value schema is anyOf every JSON type; under not it stays", () => {
    const s = portableSchema({ type: 'object', properties: { x: {}, n: { not: {} } }, additionalProperties: {} }) as Record<string, unknown>;
    expect(s.additionalProperties).toBe(true);
    const props = s.properties as Record<string, { anyOf?: unknown[]; not?: unknown }>;
    expect(props.x!.anyOf).toHaveLength(6);
    expect(props.n).toEqual({ not: {} });
  });

  it('zod nullable, looseObject and unknown come out portable', () => {
    const json = z.toJSONSchema(z.looseObject({ a: z.string().nullable(), b: z.array(z.unknown()) }), { io: 'output' }) as Record<string, unknown>;
    expect(findings(json, 'zod').length).toBeGreaterThan(0);
    expect(findings(portableSchema(json), 'portable')).toEqual([]);
  });
});
