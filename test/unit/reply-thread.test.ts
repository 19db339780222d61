import type { CallToolResult } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import { replyOf, replySubject } from '../../tools/support/reply-to.js';
import { useInProcessServer } from '../helpers/in-process.js';

const server = useInProcessServer();

type Row = Record<string, any>;
const unfence = (v: unknown) => String(v).replace(/<\/?untrusted-[0-9a-f]+[^>]*>/g, '');

/** A lead's messages as the API gives them, newest first. */
async function messages(lead: string): Promise<Row[]> {
  const r = await fetch(`${server.sb.baseUrl}/v1/workspaces/acme/leads/${lead}/messages?limit=200&order=desc`, {
    headers: { authorization: `Bearer ${server.sb.keys.admin}` },
  });
  return ((await r.json()) as { data: Row[] }).data;
}

async function render(lead: string) {
  const template = server.sb.store.templates.inGroup('acme').find((t) => t.ai_variables.length === 0)!;
  const r = (await server.client.callTool({ name: 'render_template', arguments: { template_id: template.id, lead_id: lead } })) as CallToolResult;
  expect(r.isError).toBeFalsy();
  return { text: (r.content[0] as { text: string }).text, structured: r.structuredContent as Row };
}

const topic = (s: string) => s.replace(/^\s*((re|fwd?)\s*:\s*)+/i, '').trim();

describe("render_template answers in the lead's thread: the reply subject and the sender of the thread's last outbound message", () => {
  it('a lead who wrote in: reply in both forms, "Re: " and the subject of the email answered, its sender the last outbound of that thread', async () => {
    const leads = server.sb.store.leads.inGroup('acme').filter((l) => l.state === 'active');
    let checked = 0;
    let notOwner = 0;
    for (const lead of leads.slice(0, 8)) {
      const newest = await messages(lead.id);
      const inbound = newest.find((m) => m.direction === 'inbound');
      if (!inbound) continue;
      const subject = inbound.subject ?? newest.find((m) => m.subject)!.subject;
      const outbound = newest.filter((m) => m.direction === 'outbound');
      const last = outbound.find((m) => m.subject && topic(m.subject) === topic(subject)) ?? outbound[0]!;
      const r = await render(lead.id);
      const reply = r.structured.reply;
      expect(reply, lead.email).toBeDefined();
      expect(unfence(reply.subject)).toBe(`Re: ${topic(subject)}`);
      expect(unfence(reply.subject)).not.toMatch(/^re:\s*re:/i);
      expect(reply.message_id).toBe(inbound.id);
      expect(unfence(reply.to.email)).toBe(inbound.from_email);
      expect(unfence(reply.from.email)).toBe(last.from_email);
      if (last.from_email !== 'ada@acme.example') notOwner++;
      // The template's own subject stays as it is.
      expect(unfence(r.structured.subject)).not.toBe(unfence(reply.subject));
      // The text form says the same: the subject, the message answered, both addresses.
      for (const v of [unfence(reply.subject), reply.message_id, inbound.from_email, last.from_email]) expect(unfence(r.text)).toContain(v);
      // Outsider text is fenced in both forms.
      expect(reply.subject).toMatch(/^<untrusted-/);
      checked++;
    }
    expect(checked).toBeGreaterThan(3);
    // Issue 30: one thread's last outbound came from another rep than the key owner: the reply says who.
    expect(notOwner).toBeGreaterThan(0);
  });

  it('"Re: " is put once, whatever the subject starts with; no inbound email, or no outbound one, gives no reply', () => {
    expect(replySubject('Following up')).toBe('Re: Following up');
    expect(replySubject('RE: re: Following up')).toBe('Re: Following up');
    const out = { id: 'msg_o', direction: 'outbound', subject: 'Hello', from_name: 'Raj', from_email: 'raj@acme.example', sent_at: null };
    const inn = { id: 'msg_i', direction: 'inbound', subject: 'Re: Hello', from_name: null, from_email: 'lee@x.example', sent_at: null };
    expect(replyOf([inn, out])).toEqual({
      subject: 'Re: Hello',
      message_id: 'msg_i',
      to: { email: 'lee@x.example' },
      from: { email: 'raj@acme.example', name: 'Raj' },
    });
    expect(replyOf([out])).toBeNull();
    expect(replyOf([inn])).toBeNull();
  });
});
