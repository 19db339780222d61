import type { CallToolResult } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import { useInProcessServer } from '../helpers/in-process.js';

const server = useInProcessServer();

const call = async (name: string, args: Record<string, unknown>) => {
  const r = (await server.client.callTool({ name, arguments: args })) as CallToolResult;
  const text = (r.content[0] as { text: string }).text;
  const [json, ...rest] = text.split('\n');
  return { isError: r.isError === true, text, error: JSON.parse(json!).error as { code: string; message: string; param?: string }, next: rest.join('\n') };
};

const lead = () => server.sb.store.leads.inGroup('acme')[0]!.id;

describe('a refusal that names another tool ends with that tool', () => {
  it.each([
    ['booked', 'mark_booked'],
    ['disqualified', 'mark_disqualified'],
    ['responded', 'mark_responded'],
    ['read', 'mark_read'],
    ['unread', 'mark_unread'],
  ])('set_status status %s points to %s, never "fix the argument"', async (status, tool) => {
    const r = await call('set_status', { lead_id: lead(), status });
    expect(r.isError).toBe(true);
    expect(r.error.code).toBe('invalid_request');
    expect(r.error.param).toBe('status');
    expect(r.error.message).toContain(tool);
    expect(r.next).toBe(`set_status cannot do this; call ${tool}.`);
    expect(r.text).not.toMatch(/Fix the argument/);
  });

  it('a status that is simply wrong still gets the list and the fix-the-argument step', async () => {
    const r = await call('set_status', { lead_id: lead(), status: 'warm' });
    expect(r.error.code).toBe('invalid_request');
    expect(r.next).toMatch(/Fix the argument 'status'/);
  });
});

describe('a known misnamed argument names the right one', () => {
  it('create_task title: the text goes in notes', async () => {
    const r = await call('create_task', { lead_id: lead(), title: 'Send pricing' });
    expect(r.error.code).toBe('invalid_request');
    expect(r.error.param).toBe('title');
    expect(r.error.message).toContain("takes this as 'notes'");
    expect(r.next).toBe('Pass the same value as notes and call create_task again.');
  });

  it('create_note text: the text goes in body', async () => {
    const r = await call('create_note', { lead_id: lead(), text: 'Called, no answer' });
    expect(r.error.message).toContain("takes this as 'body'");
  });
});

describe('a lead state filter is pointed to status', () => {
  it('list_leads state: names status and its lifecycle values, never "fix the argument"', async () => {
    const r = await call('list_leads', { state: 'active' });
    expect(r.error.code).toBe('invalid_request');
    expect(r.error.param).toBe('state');
    expect(r.error.message).toMatch(/^Unknown argument 'state': /);
    expect(r.error.message).toContain('status:["booked"]');
    expect(r.error.message).toContain('disqualified');
    expect(r.next).toBe('Use status as the message says and call list_leads again.');
  });

  it('the filter it names works as the hint says', async () => {
    const lead = server.sb.store.leads.inGroup('acme')[0]!;
    await server.client.callTool({ name: 'mark_booked', arguments: { lead_id: lead.id } });
    const r = (await server.client.callTool({ name: 'list_leads', arguments: { status: ['booked'], view: 'full' } })) as CallToolResult;
    const rows = (r.structuredContent as { data: { id: string; state: string }[] }).data;
    expect(rows.map((l) => l.id)).toContain(lead.id);
    expect(rows.every((l) => l.state === 'booked')).toBe(true);
  });
});

describe('a missing required argument is invalid_request naming it', () => {
  it('download_attachment without lead_id', async () => {
    const r = await call('download_attachment', { attachment_id: 'att_abc123' });
    expect(r.error.code).toBe('invalid_request');
    expect(r.error.param).toBe('lead_id');
    expect(r.error.message).toBe("Argument 'lead_id' is required.");
  });

  it('set_status without status', async () => {
    const r = await call('set_status', { lead_id: lead() });
    expect(r.error.code).toBe('invalid_request');
    expect(r.error.message).toBe("Argument 'status' is required.");
  });
});

describe('a guessed tool name is refused with the name it likely meant', () => {
  it.each([
    ['get_leads', 'get_lead'],
    ['list_lead', 'list_leads'],
    ['get_conversations', 'get_conversation'],
    ['set_statuss', 'set_status'],
  ])('%s: "Did you mean %s?"', async (guess, meant) => {
    await expect(server.client.callTool({ name: guess, arguments: {} })).rejects.toThrow(
      `Unknown tool: ${guess}. Did you mean ${meant}? tools/list names every tool.`,
    );
  });

  it('a name close to none is refused with the list to read, not a guess', async () => {
    const err = await server.client.callTool({ name: 'search_inbox', arguments: {} }).catch((e: Error) => e);
    expect(String(err)).toMatch(/Unknown tool: search_inbox\. tools\/list names every tool\.$/);
  });
});
