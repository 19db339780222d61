import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { TOOL_ENDPOINTS } from '../../src/api/endpoints.js';
import { SERVER_INSTRUCTIONS, publishedTool } from '../../src/mcp/server.js';
import { SAID_ONCE } from '../../src/mcp/declare/publish.js';
import { ALL_TOOLS } from '../../tools/index.js';

const published = ALL_TOOLS.map(publishedTool);
/** Upper-case words that are names, not shouting. */
const ACRONYMS = new Set(['API', 'HTML', 'JSON', 'HTTP', 'UTC', 'ISO', 'IANA', 'SHA', 'YYYY', 'HH', 'MM', 'DD', 'CSV']);

describe('every endpoint of the table is exactly one tool', () => {
  it('one tool per tool endpoint, named as its endpoint', () => {
    expect(ALL_TOOLS.map((t) => t.name).sort()).toEqual(TOOL_ENDPOINTS.map((e) => e.name).sort());
    expect(ALL_TOOLS).toHaveLength(TOOL_ENDPOINTS.length);
  });
});

describe.each(published.map((p, i) => [p.name, p, ALL_TOOLS[i]!] as const))('tool %s', (name, p, def) => {
  it('has a snake_case name and a title', () => {
    expect(name).toMatch(/^[a-z][a-z0-9]*(_[a-z0-9]+)+$/);
    expect(p.title.length).toBeGreaterThan(3);
  });

  it('has a description written for a model: under 1,024 characters, no shouting', () => {
    expect(p.description.length).toBeGreaterThan(40);
    expect(p.description.length).toBeLessThan(1024);
    expect(p.description).not.toMatch(/!/);
    const caps = p.description.match(/\b[A-Z]{3,}\b/g) ?? [];
    expect(caps.filter((w) => !ACRONYMS.has(w))).toEqual([]);
  });

  it('names its cost when it is more than the one read or write the server instructions state', () => {
    const e = def.endpoint;
    const dearer = (e.bucket !== 'read' && e.bucket !== 'write') || e.upstreamWhen !== undefined || (e.alsoMeters?.length ?? 0) > 0;
    if (dearer) expect(p.description).toMatch(/[Cc]osts? .*(upstream|thread)/);
    else expect(p.description).not.toMatch(/[Cc]osts one (read|write)\./);
  });

  it('carries every annotation, derived from the endpoint table', () => {
    const a = p.annotations;
    expect(a.title).toBe(p.title);
    expect(a.readOnlyHint).toBe(!def.endpoint.write);
    expect(a.destructiveHint).toBe(def.endpoint.write && def.endpoint.destructive);
    expect(a.idempotentHint).toBe(def.endpoint.idempotent);
    expect(typeof a.openWorldHint).toBe('boolean');
  });

  it('publishes a strict input schema with every argument described, there or (the shared ones) once in the server instructions', () => {
    const s = p.inputSchema as { type: string; additionalProperties: unknown; properties: Record<string, { description?: string }> };
    expect(s.type).toBe('object');
    expect(s.additionalProperties).toBe(false);
    for (const [arg, schema] of Object.entries(s.properties)) {
      if (schema.description === undefined) expect(Object.keys(SAID_ONCE), `${name}.${arg}`).toContain(arg);
      else expect(schema.description, `${name}.${arg}`).toMatch(/\S{3}/);
    }
  });

  it('publishes an object output schema', () => {
    expect((p.outputSchema as { type: string }).type).toBe('object');
  });

  it('matches its committed schema snapshot (a change to the surface shows in review)', async () => {
    await expect(`${JSON.stringify(p, null, 2)}\n`).toMatchFileSnapshot(`./__snapshots__/tools/${name}.json`);
  });
});

describe("annotations say what is safe, per the spec's transitions", () => {
  const byName = new Map(published.map((p) => [p.name, p.annotations]));
  it('render_template is a read; create_task and create_note are not idempotent; set_status can complete tasks for good', () => {
    expect(byName.get('render_template')).toMatchObject({ readOnlyHint: true, destructiveHint: false });
    expect(byName.get('create_task')).toMatchObject({ readOnlyHint: false, idempotentHint: false });
    expect(byName.get('create_note')).toMatchObject({ readOnlyHint: false, idempotentHint: false });
    expect(byName.get('set_status')).toMatchObject({ readOnlyHint: false, destructiveHint: true, idempotentHint: true });
    expect(byName.get('delete_task')).toMatchObject({ destructiveHint: true });
    expect(byName.get('mark_read')).toMatchObject({ destructiveHint: false, idempotentHint: true });
  });
});

/** What a model reads of the tool list on every turn: name, description and input schema. */
const modelVisible = (list: readonly { name: string; description: string; inputSchema: unknown }[]) =>
  Buffer.byteLength(JSON.stringify(list.map((t) => ({ name: t.name, description: t.description, inputSchema: t.inputSchema }))));
/** The whole answer to tools/list as the server sends it, output schemas, titles and annotations included. */
const onTheWire = (list: readonly unknown[]) => Buffer.byteLength(JSON.stringify({ tools: list }));

describe('the tool list is small: what every tool shares is said once, in the server instructions', () => {
  it('every tool of the table fits in 27,000 bytes of model-visible JSON, room left for another tool', () => {
    expect(published).toHaveLength(TOOL_ENDPOINTS.length);
    expect(modelVisible(published)).toBeLessThanOrEqual(27_000);
  });

  it('the whole tools/list answer, output schemas included, fits in 60,000 bytes', () => {
    expect(onTheWire(published)).toBeLessThanOrEqual(60_000);
  });

  it('an output schema names the fields of a result and their types, and repeats no record schema nested in them', () => {
    for (const p of published) {
      const props = (p.outputSchema as { properties: Record<string, Record<string, unknown>> }).properties;
      for (const [field, schema] of Object.entries(props)) {
        const branches = (schema.anyOf as Record<string, unknown>[] | undefined) ?? [schema];
        for (const b of branches) expect(b, `${p.name}.${field}`).not.toHaveProperty('properties');
        for (const b of branches) expect(b, `${p.name}.${field}`).not.toHaveProperty('items');
      }
    }
  });

  it("a write's output schema says it holds the id and the effects, not the lead schema again: the lead's fields are get_lead's", () => {
    const lead = Object.keys((published.find((p) => p.name === 'get_lead')!.outputSchema as { properties: object }).properties);
    expect(lead).toEqual(expect.arrayContaining(['status', 'unread', 'responded', 'last_message_at']));
    for (const p of published.filter((x) =>
      ['set_status', 'mark_read', 'mark_unread', 'mark_responded', 'mark_booked', 'mark_disqualified'].includes(x.name),
    )) {
      const fields = Object.keys((p.outputSchema as { properties: object }).properties);
      expect(fields, p.name).toEqual(expect.arrayContaining(['object', 'id', 'effects']));
      expect(
        fields.filter((f) => lead.includes(f) && !['object', 'id'].includes(f)),
        p.name,
      ).toEqual([]);
    }
  });

  it('the arguments published without a description are those the server instructions explain', () => {
    expect(SERVER_INSTRUCTIONS).toMatch(/- workspace: a slug from list_workspaces/);
    expect(SERVER_INSTRUCTIONS).toMatch(/An x_id argument takes an id of kind x, from the tool that lists x/);
    for (const arg of ['limit', 'order', 'cursor', 'max_items', 'all=true']) expect(SERVER_INSTRUCTIONS).toContain(arg);
    for (const arg of Object.keys(SAID_ONCE)) expect(arg, arg).toMatch(/^(workspace|limit|cursor|order|max_items|all|[a-z_]+_id)$/);
  });

  it('no published input schema repeats an id pattern, a length or a range the server checks itself', () => {
    const json = JSON.stringify(published.map((p) => p.inputSchema));
    expect(json).not.toMatch(/"(pattern|minLength|maxLength|minimum|maximum|minItems|maxItems)":/);
  });

  it('the instructions carry the conventions the schemas leave out: workspace, id prefixes, both user id forms, paging, fencing, costs, cut results, confirmations, subscriptions', () => {
    for (const word of [
      'workspace',
      'lead_',
      'tsk_',
      'usr_ben_acme',
      'usr_ben',
      'next_cursor',
      'max_items',
      'all=true',
      '1-200',
      'untrusted',
      'upstream',
      'left_out',
      'fetch_rest',
      'declined',
      'subscribe',
    ]) {
      expect(SERVER_INSTRUCTIONS).toContain(word);
    }
  });

  it('each tool is converted once: a second listing returns the very same objects', () => {
    expect(ALL_TOOLS.map(publishedTool).every((p, i) => p === published[i])).toBe(true);
  });
});

describe('the server checks what the published schema leaves out, and its error states the form', () => {
  const tool = (name: string) => ALL_TOOLS.find((t) => t.name === name)!;
  it.each([
    ['get_lead', { lead_id: 'tsk_abc' }, /lead_/],
    ['list_leads', { limit: 0 }, /1|small/i],
    ['list_leads', { limit: 201 }, /200|big/i],
    ['list_leads', { max_items: 1001 }, /1000/],
    ['list_leads', { fields: ['nope'] }, /email/],
    ['list_leads', { expand: ['tags', 'campaign', 'assignees', 'open_tasks'] }, /3/],
  ] as const)('%s %j', (name, args, says) => {
    const r = tool(name).input.safeParse(args);
    expect(r.success).toBe(false);
    expect(r.error!.issues[0]!.message).toMatch(says);
  });
});

describe('an argument whose description states how many items it takes states the bound the server checks', () => {
  it.each(ALL_TOOLS.map((t, i) => [t.name, t, published[i]!] as const))('%s', (_name, def, p) => {
    const full = z.toJSONSchema(def.input, { io: 'input', unrepresentable: 'any' }) as { properties: Record<string, { maxItems?: number }> };
    const docs = (p.inputSchema as { properties: Record<string, { description?: string }> }).properties;
    for (const [arg, schema] of Object.entries(full.properties)) {
      const stated = docs[arg]?.description?.match(/^1-(\d+) /)?.[1] ?? docs[arg]?.description?.match(/[Uu]p to (\d+)/)?.[1];
      if (schema.maxItems !== undefined && stated !== undefined) expect(Number(stated), `${p.name}.${arg}`).toBe(schema.maxItems);
    }
  });
});
