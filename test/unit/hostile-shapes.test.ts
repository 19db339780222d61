import type { CallToolResult } from '@modelcontextprotocol/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError } from '../../src/client/index.js';
import { redactDeep } from '../../src/redact.js';
import type { Sandbox } from '../../src/sandbox/index.js';
import type { MeetingRec } from '../../src/sandbox/store/types.js';
import { type Relay, startRelay } from '../../scripts/harness/relay.js';
import { client, sandbox } from '../client/helpers.js';
import { inProcessServer } from '../helpers/in-process.js';

/** Hostile shapes from the API: JSON nested past any resource's depth, and form keys named like an object's internals. */
let sb: Sandbox;
let relay: Relay;
let s: Awaited<ReturnType<typeof inProcessServer>>;
let meeting: MeetingRec;
beforeAll(async () => {
  sb = await sandbox({ leads: 20 });
  relay = await startRelay(sb.baseUrl);
  meeting = sb.store.meetings.inGroup('acme')[0]!;
  // JSON.parse makes __proto__ an own key, as the API's JSON would.
  meeting.custom_fields = JSON.parse('{"__proto__":"from the proto question","constructor":"from the constructor question","Team size":"12"}');
  meeting.utm_params = JSON.parse('{"utm_source":"mail","__proto__":{"polluted":"yes"}}');
  s = await inProcessServer(sb);
});
afterAll(async () => {
  await s?.close();
  await relay?.close();
  await sb?.close();
});

describe('A booking-form key named __proto__ is data, kept like any other key', () => {
  it('get_meeting keeps __proto__ in custom_fields and utm_params, in structuredContent and in the text, and pollutes nothing', async () => {
    const r = (await s.client.callTool({ name: 'get_meeting', arguments: { meeting_id: meeting.id } })) as CallToolResult;
    expect(r.isError).toBeFalsy();
    const text = (r.content[0] as { text: string }).text;
    const structured = JSON.stringify(r.structuredContent);
    for (const form of [text, structured]) {
      expect(form).toContain('from the proto question');
      expect(form).toContain('from the constructor question');
      expect(form).toContain('polluted');
      expect(form).toMatch(/__proto__/);
    }
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('the redaction of an answer that echoes a key keeps a __proto__ key as data too', () => {
    const echoed = JSON.parse(`{"custom_fields":{"__proto__":"key ${sb.keys.admin}"}}`) as { custom_fields: Record<string, unknown> };
    const clean = redactDeep(echoed);
    expect(Object.keys(clean.custom_fields)).toEqual(['__proto__']);
    expect(JSON.stringify(clean)).toContain('"__proto__":"key rik_live_admin001_…"');
  });
});

describe('JSON nested 5,000 deep is invalid_response, not an internal error', () => {
  const deep = `${'{"a":'.repeat(5_000)}1${'}'.repeat(5_000)}`;
  it('the client refuses it as invalid_response before any recursive code reads it', async () => {
    relay.override = (req) => ((req.url ?? '').includes('/members') ? { status: 200, body: deep } : null);
    const { client: c } = client(sb, { baseUrl: relay.url, discoverLimits: false });
    // Only a summary is judged: a 5,000-deep value would overflow the test runner's own messages.
    const got = await c.call('list_members', { path: { workspace: 'acme' } }).then(
      () => 'answered',
      (e: unknown) => (e instanceof ApiError ? `${e.code}: ${e.message}` : `${(e as Error).name}: ${(e as Error).message}`),
    );
    await c.close();
    relay.override = null;
    expect(got).toMatch(/^invalid_response: .*nested deeper than \d+ levels/);
  });
});
