import type { CallToolResult } from '@modelcontextprotocol/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ReplyInboxClient, type RowCallOptions } from '../../src/client/index.js';
import { type EndpointName, endpoint } from '../../src/api/endpoints.js';
import type { Sandbox } from '../../src/sandbox/index.js';
import { sandbox } from '../client/helpers.js';
import { inProcessServer } from '../helpers/in-process.js';
import { unfenced } from '../../scripts/harness/reliability/scan.js';

const bytes = (s: string) => Buffer.byteLength(s, 'utf8');
const LONG_REPLY = `Thanks for the note. We are reviewing vendors for the approval flow next quarter and pricing matters most. ${'More detail on our process follows. '.repeat(120)}`;

let sb: Sandbox;
let server: Awaited<ReturnType<typeof inProcessServer>>;
const sent: { name: string; query: unknown }[] = [];

beforeAll(async () => {
  sb = await sandbox({ leads: 20 });
  const api = new ReplyInboxClient({ apiKey: sb.keys.admin, baseUrl: sb.baseUrl, logLevel: 'silent' });
  const counting = Object.assign(Object.create(api), {
    call: (name: EndpointName, req: RowCallOptions) => {
      sent.push({ name, query: req.query });
      return api.request(endpoint(name), req);
    },
  });
  server = await inProcessServer(sb, { api: counting });
});
afterAll(async () => {
  await server?.close();
  await sb?.close();
});

describe('get_lead by default shows the lead', () => {
  it('contact, status, state, campaign, assignees, the latest reply and counts of open tasks and notes, in one request and 1,200 bytes per form', async () => {
    const lead = sb.store.leads.inGroup('acme').find((l) => l.state === 'active' && l.first_name && l.company_name && l.title)!;
    const campaign = sb.store.campaigns.inGroup('acme')[0]!;
    lead.campaign_id = campaign.id;
    lead.campaign_name = campaign.name;
    lead.subject = `Re: ${'Approval workflow question '.repeat(10)}`;
    lead.body_preview = LONG_REPLY;
    const members = sb.store.membersOf('acme').slice(0, 2);
    const call = async (name: string, args: Record<string, unknown>) => {
      const r = (await server.client.callTool({ name, arguments: args })) as CallToolResult;
      expect(r.isError, JSON.stringify(r.content)).toBeFalsy();
      return r;
    };
    await call('set_assignees', { lead_id: lead.id, member_ids: members.map((m) => m.member_id) });
    await call('create_task', { lead_id: lead.id, notes: 'Send pricing', due_date: '2026-12-01' });
    await call('create_task', { lead_id: lead.id, notes: 'Book a call', due_date: '2026-12-02' });
    await call('create_note', { lead_id: lead.id, body: 'Asked for pricing' });
    sent.length = 0;
    const r = await call('get_lead', { lead_id: lead.id });
    // One API request: the assignees, open tasks and notes come embedded in the lead.
    expect(sent.map((s) => s.name)).toEqual(['get_lead']);
    const text = (r.content[0] as { text: string }).text;
    const sc = r.structuredContent as Record<string, unknown>;
    for (const form of [text, JSON.stringify(sc)]) {
      expect(bytes(form)).toBeLessThanOrEqual(1_200);
      // The email is the lead's own text (issue 31 finding 10): shown, inside a fence.
      expect(form).toContain(lead.email);
      expect(unfenced(form, lead.email)).toEqual([]);
      for (const v of [lead.first_name!, lead.last_name!, lead.title!, lead.company_name!, campaign.name, lead.status, lead.state]) expect(form).toContain(v);
      for (const m of members) expect(form).toContain(m.member_id);
      expect(form).toContain('Thanks for the note. We are reviewing vendors');
      expect(form).toContain('Approval workflow question');
    }
    expect(sc).toMatchObject({ campaign_id: campaign.id, open_task_count: 2, note_count: 1, assignee_ids: members.map((m) => m.member_id) });
    expect((sc.assignee_names as string[]).length).toBe(2);
    expect(text).toMatch(/open_task_count=2 note_count=1/);
  });

  it('long names, every assignable member assigned: the latest reply is shortened so the card still fits', async () => {
    const lead = sb.store.leads.inGroup('acme')[2]!;
    Object.assign(lead, {
      first_name: 'F'.repeat(300),
      last_name: 'L'.repeat(300),
      title: 'T'.repeat(300),
      company_name: 'C'.repeat(300),
      subject: 'S'.repeat(300),
    });
    lead.body_preview = LONG_REPLY;
    const roster = (await server.client.callTool({ name: 'list_members', arguments: { assignable: true } })) as CallToolResult;
    const ids = (roster.structuredContent as { data: { id: string }[] }).data.map((m) => m.id);
    const set = (await server.client.callTool({ name: 'set_assignees', arguments: { lead_id: lead.id, member_ids: ids } })) as CallToolResult;
    expect(set.isError).toBeFalsy();
    const r = (await server.client.callTool({ name: 'get_lead', arguments: { lead_id: lead.id } })) as CallToolResult;
    const sc = r.structuredContent as Record<string, unknown>;
    expect((sc.assignee_ids as string[]).length).toBeGreaterThanOrEqual(3);
    expect(bytes((r.content[0] as { text: string }).text)).toBeLessThanOrEqual(1_200);
    expect(bytes(JSON.stringify(sc))).toBeLessThanOrEqual(1_200);
    expect(sc.body_preview).toMatch(/^<untrusted-\w+>Thanks for the note.*…<\/untrusted-\w+>$/);
  });

  it('view=full, fields and expand read as they did: the record, the chosen fields, the compact view with what was embedded', async () => {
    const lead = sb.store.leads.inGroup('acme')[1]!;
    const full = (await server.client.callTool({ name: 'get_lead', arguments: { lead_id: lead.id, view: 'full' } })) as CallToolResult;
    expect(full.structuredContent).toMatchObject({ object: 'lead', id: lead.id, workspace: 'acme' });
    expect(full.structuredContent).not.toHaveProperty('open_task_count');
    const tags = (await server.client.callTool({ name: 'get_lead', arguments: { lead_id: lead.id, expand: ['tags'] } })) as CallToolResult;
    expect(tags.structuredContent).not.toHaveProperty('note_count');
  });
});
