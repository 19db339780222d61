import type { CallToolResult, Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ReplyInboxClient, type RowCallOptions } from '../../src/client/index.js';
import { type EndpointName, endpoint } from '../../src/api/endpoints.js';
import type { Sandbox } from '../../src/sandbox/index.js';
import { sandbox } from '../client/helpers.js';
import { inProcessServer } from '../helpers/in-process.js';

/** The server over a client that records every endpoint it calls. */
const sent: string[] = [];
const server = {} as { sb: Sandbox; client: Client; close(): Promise<void> };
beforeAll(async () => {
  server.sb = await sandbox({ leads: 20 });
  const api = new ReplyInboxClient({ apiKey: server.sb.keys.admin, baseUrl: server.sb.baseUrl, logLevel: 'silent' });
  const counting = Object.assign(Object.create(api), {
    call: (name: EndpointName, req: RowCallOptions) => {
      sent.push(name);
      return api.request(endpoint(name), req);
    },
  });
  const s = await inProcessServer(server.sb, { api: counting });
  server.client = s.client;
  server.close = async () => {
    await s.close();
    await server.sb.close();
  };
});
afterAll(() => server.close());

const call = async (name: string, args: Record<string, unknown>) => {
  const r = (await server.client.callTool({ name, arguments: args })) as CallToolResult;
  return { isError: r.isError === true, structured: r.structuredContent as any, text: (r.content[0] as { text: string }).text };
};

const acme = () => server.sb.store.leads.inGroup('acme');

describe('batched per-lead writes: lead_ids', () => {
  it('mark_read over 5 leads: one request per lead, one table with each lead and its effects verbatim', async () => {
    const ids = acme()
      .slice(0, 5)
      .map((l) => l.id);
    sent.length = 0;
    const r = await call('mark_read', { lead_ids: ids });
    expect(r.isError).toBe(false);
    expect(r.structured.done).toBe(5);
    // No lead failed: a count of 0 is left out of both forms, as the text leaves it out.
    expect(r.structured.failed).toBeUndefined();
    expect(r.structured.results.map((x: { lead_id: string }) => x.lead_id)).toEqual(ids);
    for (const row of r.structured.results) {
      // The outcome in the words of the text (issue 30: "marked read" there, "done" here).
      expect(row.outcome).toBe('marked read');
      expect(row.unread).toBe(false);
      expect(r.text).toContain(`| ${row.lead_id} | marked read | false | ${JSON.stringify(row.effects)} |`);
    }
    expect(r.text.split('\n')[0]).toBe('mark_read: 5 of 5 leads marked read.');
    expect(sent).toEqual(ids.map(() => 'mark_read'));
  });

  it('one lead that fails does not hide the others: each lead is listed with its outcome', async () => {
    const [a, b] = acme().slice(5, 7);
    const r = await call('set_status', { lead_ids: [a!.id, 'lead_doesnotexist', b!.id], status: 'interested' });
    expect(r.isError).toBe(false);
    expect(r.structured.done).toBe(2);
    expect(r.structured.failed).toBe(1);
    const failed = r.structured.results[1];
    expect(failed).toMatchObject({ lead_id: 'lead_doesnotexist', outcome: 'failed', error: { code: 'not_found' } });
    expect(r.text).toContain('| lead_doesnotexist | failed: not_found |');
    expect(r.text.split('\n')[0]).toBe('set_status: 2 of 3 leads status set; 1 failed, each with its reason.');
    expect(server.sb.store.leads.get(a!.id)!.status).toBe('interested');
    expect(server.sb.store.leads.get(b!.id)!.status).toBe('interested');
  });

  it('lead_id and lead_ids together, or neither, are refused as invalid_request before anything is sent', async () => {
    const [a] = acme();
    const both = await call('mark_responded', { lead_id: a!.id, lead_ids: [a!.id] });
    sent.length = 0;
    expect(both.isError).toBe(true);
    expect(both.text).toContain('"code":"invalid_request"');
    expect(both.text).toContain('not both');
    const neither = await call('mark_unread', {});
    expect(neither.isError).toBe(true);
    expect(neither.text).toContain('"code":"invalid_request"');
    expect(neither.text).toContain("'lead_id'");
    expect(sent).toEqual([]);
  });

  it('more than 50 leads are refused', async () => {
    const ids = Array.from({ length: 51 }, (_, i) => `lead_x${i}`);
    const r = await call('mark_read', { lead_ids: ids });
    expect(r.isError).toBe(true);
    expect(r.text).toContain('lead_ids');
  });
});
