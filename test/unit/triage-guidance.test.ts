import type { CallToolResult } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import { SERVER_INSTRUCTIONS } from '../../src/mcp/instructions.js';
import { TRIAGE_STATUSES } from '../../src/mcp/resources-prompts/prompts.js';
import { LIST_LEADS_PAGE } from '../../tools/leads.js';
import { useInProcessServer } from '../helpers/in-process.js';

const server = useInProcessServer(120);
const call = async (name: string, args: Record<string, unknown>) => {
  const r = (await server.client.callTool({ name, arguments: args })) as CallToolResult;
  return { isError: r.isError === true, structured: r.structuredContent as any, text: (r.content[0] as { text: string }).text };
};
const triageText = async () => {
  const p = await server.client.getPrompt({ name: 'triage_inbox', arguments: {} });
  return (p.messages[0]!.content as { text: string }).text;
};

describe('defaults sized for triage', () => {
  it(`list_leads without a limit answers a page of ${LIST_LEADS_PAGE}, and the rest is one cursor away`, async () => {
    const r = await call('list_leads', {});
    expect(r.structured.data).toHaveLength(20);
    expect(r.structured.has_more).toBe(true);
    const next = await call('list_leads', { cursor: r.structured.next_cursor });
    expect(next.structured.data).toHaveLength(20);
    const ids = [...r.structured.data, ...next.structured.data].map((l: { id: string }) => l.id);
    expect(new Set(ids).size).toBe(40);
  });
  it('the instructions and the triage prompt both say to read small', async () => {
    expect(SERVER_INSTRUCTIONS).toMatch(/Read small: list_leads gives 20 rows and get_conversation the newest 10 messages/);
    expect(await triageText()).toMatch(/Read the threads small: call get_conversation with lead_ids/);
  });
});

describe('one triage guidance', () => {
  it('the instructions and the triage prompt name the same first call: unread, unanswered, interested or untagged', async () => {
    const filter = `unread=true, responded=false, status=${JSON.stringify(TRIAGE_STATUSES)}`;
    expect(SERVER_INSTRUCTIONS).toContain(`list_leads with ${filter}`);
    expect(await triageText()).toContain(`${filter}, limit=10`);
  });
  it('that call finds an interested reply no one has tagged (status untagged, classification INTERESTED), which status=interested misses', async () => {
    const r = await call('list_leads', { unread: true, responded: false, status: TRIAGE_STATUSES, max_items: 1000, fields: ['status', 'classification'] });
    const untagged = r.structured.data.filter((l: { status: string; classification?: string }) => l.status === 'untagged' && l.classification === 'INTERESTED');
    expect(untagged.length).toBeGreaterThan(0);
    const old = await call('list_leads', { unread: true, responded: false, status: ['interested'], max_items: 1000, fields: ['status'] });
    const oldIds = new Set(old.structured.data.map((l: { id: string }) => l.id));
    for (const l of untagged) expect(oldIds.has(l.id)).toBe(false);
  });
  it("both point to a lead's team notes and say there is no state filter", async () => {
    expect(SERVER_INSTRUCTIONS).toContain("a lead's team notes are read with list_notes and its lead_id");
    expect(await triageText()).toContain("A lead's team notes, where it has any, are read with list_notes and its lead_id");
    expect(SERVER_INSTRUCTIONS).toContain('There is no state filter: status takes booked and disqualified too.');
  });
});
