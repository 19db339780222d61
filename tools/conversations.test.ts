import { createHash } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { SPECIAL_EMAILS } from '../src/sandbox/seed/leads.js';
import { callErr } from '../test/helpers/tool-calls.js';
import { everyToolCovered, firstId, type InvalidCall, toolArea } from '../test/helpers/tool-area.js';

/** The conversations tools (tools/conversations.ts), served in process: valid calls, then one invalid call each. */
const area = toolArea('conversations', { rep: true });
const ids = { files: { lead: '', attachment: '' } };
beforeAll(async () => {
  ids.files.lead = await firstId(area, 'list_leads', { email: SPECIAL_EMAILS.attachments });
});

describe('Conversations: the thread as text and an attachment as an embedded resource', () => {
  it('get_conversation lists the messages with their attachment ids', async () => {
    const { structured } = await area.ok('get_conversation', { lead_id: ids.files.lead, limit: 10 });
    expect(structured.lead_id).toBe(ids.files.lead);
    expect(structured.messages.length).toBeGreaterThan(0);
    const files = structured.messages.flatMap((m: any) => m.attachments ?? []);
    // A file name is the sender's text: it arrives fenced.
    expect(files.some((f: any) => f.filename.includes('>signed-nda.pdf<'))).toBe(true);
    ids.files.attachment = files.find((f: any) => f.filename.includes('>signed-nda.pdf<')).id;
  });
  it('download_attachment embeds the bytes with their size and sha256', async () => {
    const { structured, result } = await area.ok('download_attachment', { lead_id: ids.files.lead, attachment_id: ids.files.attachment });
    const lead = area.store().leads.get(ids.files.lead)!;
    const rec = area
      .store()
      .conversation(lead)
      .flatMap((m) => m.attachments)
      .find((a) => a.id === ids.files.attachment)!;
    const bytes = Buffer.from(rec.content, 'utf8');
    expect(structured).toMatchObject({ attachment_id: ids.files.attachment, size_bytes: bytes.length });
    expect(structured.filename).toMatch(/^<untrusted-[0-9a-f]{6}>signed-nda\.pdf<\/untrusted-[0-9a-f]{6}>$/);
    expect(structured.sha256).toBe(createHash('sha256').update(bytes).digest('hex'));
    const embedded = result.content.find((c) => c.type === 'resource') as { resource: { blob: string; uri: string } } | undefined;
    expect(Buffer.from(embedded!.resource.blob, 'base64').equals(bytes)).toBe(true);
    expect(embedded!.resource.uri).toContain(ids.files.attachment);
  });
});

describe("An API error comes back as isError with the API's code and a next step", () => {
  it('not_found for a lead of another workspace (tenancy), through the rep key', async () => {
    const globexLead = [...area.store().leads.inGroup('globex')][0]!;
    const e = await callErr(area.rep, 'get_conversation', { lead_id: globexLead.id });
    expect(e.error).toMatchObject({ code: 'not_found', status: 404 });
    expect(e.nextStep.length).toBeGreaterThan(0);
  });
});

const L = 'lead_abc123';
const INVALID: InvalidCall[] = [
  ['get_conversation', { lead_id: L, max_body_chars: 10 }, 'invalid_request', 'max_body_chars'],
  ['download_attachment', { lead_id: L, attachment_id: 'msg_abc123' }, 'invalid_id', 'attachment_id'],
];

everyToolCovered(area, INVALID);
