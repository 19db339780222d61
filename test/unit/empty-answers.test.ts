import type { CallToolResult } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import { useInProcessServer } from '../helpers/in-process.js';

const server = useInProcessServer();

async function list(args: Record<string, unknown>) {
  const r = (await server.client.callTool({ name: 'list_leads', arguments: args })) as CallToolResult;
  expect(r.isError).toBeFalsy();
  return { text: (r.content[0] as { text: string }).text, structured: r.structuredContent as { data?: unknown[]; filter_notes?: string[] } };
}

describe('an empty list_leads says what its filters match (spec: q is a prefix search over name, email, company, title and subject, not message bodies)', () => {
  it('q that matches nothing: what q searches, what it does not, and where the words of bodies are, in both forms', async () => {
    // Issue 30: a word of a message body, which q does not search, answered "0 leads; no more pages." and nothing else.
    for (const view of [{}, { view: 'full' }]) {
      const r = await list({ q: 'Kilimanjaro', ...view });
      expect(r.structured.data ?? []).toHaveLength(0);
      const notes = r.structured.filter_notes ?? [];
      expect(notes).toHaveLength(1);
      for (const said of ['name, email, company, title and subject', 'never in message bodies', 'get_conversation', 'list_replies'])
        expect(notes[0]).toContain(said);
      expect(r.text).toContain(notes[0]);
    }
  });

  it('each misread filter of the call is said, and only those', async () => {
    const cmp = server.sb.store.campaigns.inGroup('acme')[0]!.id;
    const r = await list({
      campaign_id: cmp,
      unread: true,
      status: ['interested'],
      updated_since: '2020-01-01T00:00:00Z',
      updated_before: '2020-01-02T00:00:00Z',
    });
    expect(r.structured.data ?? []).toHaveLength(0);
    const notes = r.structured.filter_notes ?? [];
    expect(notes.map((n) => n.split(' ')[0])).toEqual(['campaign_id', 'status', 'unread', 'updated_since', 'updated_before']);
    expect(notes[0]).toMatch(/last 15 minutes/);
    expect(notes[1]).toMatch(/classification/);
    expect(notes[2]).toMatch(/key owner/);
    expect(notes[3]).toMatch(/last_message_at/);
    for (const n of notes) expect(r.text).toContain(n);
  });

  it('a page with leads carries no notes, nor does an empty page of filters read as written', async () => {
    const some = await list({ q: 'a' });
    expect(some.structured.filter_notes).toBeUndefined();
    const tag = server.sb.store.leadTags.inGroup('acme').at(-1)!.id;
    const none = await list({ assignee_id: ['none'], lead_tag_id: [tag], meeting_outcome: ['cancelled'] });
    expect(none.structured.data ?? []).toHaveLength(0);
    expect(none.structured.filter_notes).toBeUndefined();
    expect(none.text).not.toContain('filter_notes');
  });
});
