import type { Client, CallToolResult } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/index.js';
import { ALL_TOOLS } from '../../tools/index.js';
import { sandbox } from '../client/helpers.js';
import { inProcessServer } from '../helpers/in-process.js';
import { DUPLICATE_WINDOW_MS } from '../../src/mcp/declare/shared-args.js';

let sb: Sandbox;
let client: Client;
let close: () => Promise<void>;
let clock = Date.parse('2026-11-20T12:00:00Z');

beforeAll(async () => {
  sb = await sandbox({ leads: 20 });
  ({ client, close } = await inProcessServer(sb, { now: () => clock }));
});
afterAll(async () => {
  await close?.();
  await sb?.close();
});

const call = async (name: string, args: Record<string, unknown>) => {
  const r = (await client.callTool({ name, arguments: args })) as CallToolResult;
  expect(r.isError, JSON.stringify(r.content)).toBeFalsy();
  return { structured: r.structuredContent as Record<string, unknown>, text: (r.content[0] as { text: string }).text };
};
/** Objects in the sandbox's store, counted where they are created. */
const count = (kind: 'tasks' | 'notes', leadId: string) => [...sb.store[kind].all()].filter((x) => x.lead_id === leadId).length;
const leadAt = (i: number) => sb.store.leads.inGroup('acme')[i]!.id;

describe.each([
  ['create_task', 'tasks', (lead: string) => ({ lead_id: lead, notes: 'Call back on Tuesday', due_date: '2026-11-24' })],
  ['create_note', 'notes', (lead: string) => ({ lead_id: lead, body: 'Asked for the pricing sheet.' })],
] as const)('%s: the same call again within 10 minutes creates nothing and answers with the earlier id', (tool, kind, argsFor) => {
  it('two identical calls make one object; the second names the first and how to create anyway', async () => {
    const lead = leadAt(kind === 'tasks' ? 1 : 2);
    const before = count(kind, lead);
    const first = await call(tool, argsFor(lead));
    const second = await call(tool, { ...argsFor(lead) });
    expect(count(kind, lead)).toBe(before + 1);
    expect(second.structured.id).toBe(first.structured.id);
    expect(second.structured.duplicate_of).toBe(first.structured.id);
    expect(second.text).toContain(String(first.structured.id));
    expect(second.text).toMatch(/Nothing created.*allow_duplicate: true/s);
  });

  it('the same arguments in another key order, with the default workspace named, are the same call', async () => {
    const lead = leadAt(kind === 'tasks' ? 3 : 4);
    const before = count(kind, lead);
    const args = argsFor(lead);
    await call(tool, args);
    await call(tool, { workspace: 'acme', ...Object.fromEntries(Object.entries(args).reverse()) });
    expect(count(kind, lead)).toBe(before + 1);
  });

  it('allow_duplicate: true creates a second object', async () => {
    const lead = leadAt(kind === 'tasks' ? 5 : 6);
    const before = count(kind, lead);
    const first = await call(tool, argsFor(lead));
    const second = await call(tool, { ...argsFor(lead), allow_duplicate: true });
    expect(count(kind, lead)).toBe(before + 2);
    expect(second.structured.id).not.toBe(first.structured.id);
    expect(second.structured.duplicate_of).toBeUndefined();
  });

  it('different arguments are a different call', async () => {
    const lead = leadAt(kind === 'tasks' ? 7 : 8);
    const before = count(kind, lead);
    await call(tool, argsFor(lead));
    await call(tool, { ...argsFor(lead), lead_id: leadAt(kind === 'tasks' ? 9 : 10) });
    expect(count(kind, lead)).toBe(before + 1);
  });

  it('after 10 minutes the same call creates again', async () => {
    const lead = leadAt(kind === 'tasks' ? 11 : 12);
    const before = count(kind, lead);
    await call(tool, argsFor(lead));
    clock += DUPLICATE_WINDOW_MS - 1_000;
    await call(tool, argsFor(lead));
    expect(count(kind, lead)).toBe(before + 1);
    clock += 1_000;
    await call(tool, argsFor(lead));
    expect(count(kind, lead)).toBe(before + 2);
  });

  it('identical calls sent together make one object', async () => {
    const lead = leadAt(kind === 'tasks' ? 13 : 14);
    const before = count(kind, lead);
    const [a, b] = await Promise.all([call(tool, argsFor(lead)), call(tool, argsFor(lead))]);
    expect(count(kind, lead)).toBe(before + 1);
    expect(a.structured.id).toBe(b.structured.id);
  });
});

describe('the guard is only on creates that are not idempotent', () => {
  it('create_task and create_note take allow_duplicate; no other tool does', () => {
    const takers = ALL_TOOLS.filter((t) => 'allow_duplicate' in t.input.shape)
      .map((t) => t.name)
      .sort();
    expect(takers).toEqual(['create_note', 'create_task']);
  });
});
