import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { publishedTool } from '../../src/mcp/server.js';
import { checkedOutputSchema } from '../../src/mcp/declare/publish.js';
import { ALL_TOOLS } from '../../tools/index.js';
import { TOOLS_DOC, renderToolsDoc, returnsOf, typeOf } from '../../scripts/gen-tools-doc.js';
import { README, handWritten, readmeParts, renderReadme } from '../../scripts/readme-tools.js';

const doc = readFileSync(TOOLS_DOC, 'utf8');

/** The section of one tool: from its heading to the next heading. */
function section(name: string): string {
  const start = doc.indexOf(`### \`${name}\`\n`);
  expect(start, `docs/tools.md has a section for ${name}`).toBeGreaterThanOrEqual(0);
  const next = doc.slice(start + 1).search(/\n#{2,3} /);
  return next < 0 ? doc.slice(start) : doc.slice(start, start + 1 + next);
}

describe('docs/tools.md is generated from the registry by a script; a test fails when it is stale', () => {
  it('equals what scripts/gen-tools-doc.ts writes now (run `npm run docs:tools` after changing a tool)', () => {
    expect(doc === renderToolsDoc(ALL_TOOLS), 'docs/tools.md is stale: run npm run docs:tools').toBe(true);
  });

  it("a change to one tool's description changes the generated text", () => {
    const [first, ...rest] = ALL_TOOLS;
    const changed = [{ ...first!, description: `${first!.description} Changed.` }, ...rest];
    expect(renderToolsDoc(changed)).not.toBe(doc);
  });
});

describe("README's tool count, toolset list and toolset table are generated from the registry; a test fails when they are stale", () => {
  const readme = readFileSync(README, 'utf8');

  it('README equals what scripts/readme-tools.ts writes now (run `npm run docs:tools` after adding or moving a tool)', () => {
    expect(readme === renderReadme(readme, ALL_TOOLS), 'README.md is stale: run npm run docs:tools').toBe(true);
  });

  it('one tool more changes every marked count and the table; each part is marked at least once', () => {
    const more = [...ALL_TOOLS, { ...ALL_TOOLS[0]!, name: 'scratch_tool' }];
    const parts = readmeParts(more);
    const written = renderReadme(readme, more);
    expect(written.split(`<!-- tools:count -->${more.length}<!-- /tools:count -->`).length - 1).toBe(readme.split('<!-- tools:count -->').length - 1);
    expect(written).toContain(parts.table);
    for (const name of Object.keys(parts)) expect(readme, `a <!-- tools:${name} --> marker`).toContain(`<!-- tools:${name}`);
  });

  it('the README writes no count of tools by hand (outside the markers)', () => {
    const text = handWritten(readme);
    const counts = [/\b\d[\d,]*\s+(?:[\w-]+\s+)?tools?\b/g, /\btools?\s*\(\d+\)/g, /\bnot \d+ times\b/g, /\b\d+\s+(?:toolsets|areas)\b/g];
    expect(counts.flatMap((re) => [...text.matchAll(re)].map((m) => m[0]))).toEqual([]);
  });

  it('a marker the generator does not know is an error, not silently kept', () => {
    expect(() => renderReadme('<!-- tools:nope -->x<!-- /tools:nope -->', ALL_TOOLS)).toThrow(/no generator/);
  });
});

describe('docs/tools.md: every tool (name, toolset, annotations, parameters, what it returns)', () => {
  it.each(ALL_TOOLS.map((t) => [t.name, t] as const))('%s', (name, t) => {
    const p = publishedTool(t);
    const s = section(name);
    expect(s).toContain(`Toolset \`${t.toolset}\``);
    expect(s).toContain(p.description);
    const a = p.annotations;
    expect(s).toContain(
      `readOnlyHint ${a.readOnlyHint}, destructiveHint ${a.destructiveHint}, idempotentHint ${a.idempotentHint}, openWorldHint ${a.openWorldHint}`,
    );
    const props = (p.inputSchema.properties ?? {}) as Record<string, { description?: string }>;
    const required = new Set((p.inputSchema.required as string[] | undefined) ?? []);
    for (const [arg, schema] of Object.entries(props)) {
      const row = s.split('\n').find((l) => l.startsWith(`| \`${arg}\` |`));
      expect(row, `${name} documents ${arg}`).toBeDefined();
      expect(row).toContain(`| ${required.has(arg) ? 'yes' : 'no'} |`);
      if (schema.description) expect(row).toContain(schema.description.replace(/\|/g, '\\|'));
    }
    if (Object.keys(props).length === 0) expect(s).toContain('No parameters.');
    expect(s).toContain(`Returns: ${returnsOf(checkedOutputSchema(t))}`);
  });

  it('the index names every toolset and links every tool', () => {
    for (const t of ALL_TOOLS) expect(doc).toContain(`[\`${t.name}\`](#${t.name})`);
  });
});

describe('the generator reads JSON Schema the way a person would', () => {
  it('ids, ranges, enums, nullables and arrays', () => {
    expect(typeOf({ type: 'string', pattern: '^lead_[A-Za-z0-9]+$' })).toBe('id `lead_…`');
    expect(typeOf({ type: 'integer', minimum: 1, maximum: 200 })).toBe('integer 1–200');
    expect(typeOf({ type: 'string', enum: ['asc', 'desc'] })).toBe('`asc` / `desc`');
    expect(typeOf({ type: ['string', 'null'] })).toBe('string or null');
    expect(typeOf({ anyOf: [{ type: 'string', maxLength: 10 }, { type: 'null' }] })).toBe('string ≤ 10 chars or null');
    expect(typeOf({ type: 'array', minItems: 1, maxItems: 3, items: { type: 'string' } })).toBe('array (1–3 items) of string');
    expect(typeOf({ type: 'array', minItems: 1, items: { type: 'boolean' } })).toBe('array (non-empty) of boolean');
    expect(typeOf({ type: 'object', additionalProperties: { type: 'string' } })).toBe('object of string');
    expect(typeOf({})).toBe('any');
  });

  it('a list page, a write with effects, a plain object', () => {
    const list = {
      properties: { object: { const: 'list' }, data: { items: { properties: { object: { const: 'task' }, id: {} } } }, has_more: {}, next_cursor: {} },
    };
    expect(returnsOf(list)).toBe('A page: `data` is an array of `task` objects; the page also has `object`, `has_more`, `next_cursor`. Each item has `id`.');
    const write = { properties: { object: { const: 'lead' }, id: {}, effects: {} } };
    expect(returnsOf(write)).toMatch(/^A `lead` object, with the API's `effects` object .*Fields: `id`, `effects`\.$/);
    expect(returnsOf({ properties: { lead_id: {}, messages: {} } })).toBe('An object. Fields: `lead_id`, `messages`.');
  });
});
