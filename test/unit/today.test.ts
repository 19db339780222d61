import type { CallToolResult } from '@modelcontextprotocol/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ReplyInboxClient } from '../../src/client/index.js';
import { SERVER_INSTRUCTIONS } from '../../src/mcp/instructions.js';
import type { Sandbox } from '../../src/sandbox/index.js';
import { sandbox } from '../client/helpers.js';
import { inProcessServer } from '../helpers/in-process.js';

// Issue 30, item 1: the owner in America/New_York at 19:29 on 27 Nov, already 28 Nov in UTC.
const AT = Date.parse('2026-11-28T00:29:00Z');

type Started = Awaited<ReturnType<typeof inProcessServer>>;
let sb: Sandbox;
let rep: Started;
beforeAll(async () => {
  sb = await sandbox({ leads: 20 });
  // Ben, the rep key's owner, keeps America/New_York (docs/sandbox.md); the server's clock is set.
  const api = new ReplyInboxClient({ apiKey: sb.keys.rep, baseUrl: sb.baseUrl, logLevel: 'silent' });
  rep = await inProcessServer(sb, { api, now: () => AT });
});
afterAll(async () => {
  await rep?.close();
  await sb?.close();
});

async function call(name: string, args: Record<string, unknown>) {
  const r = (await rep.client.callTool({ name, arguments: args })) as CallToolResult;
  return { isError: r.isError === true, text: (r.content[0] as { text: string }).text, structured: r.structuredContent as Record<string, unknown> };
}

const TODAY_LINE = "Today is Saturday 2026-11-28 in UTC; in America/New_York, the key owner's timezone, it is Friday 2026-11-27, 19:29.";

describe("get_me states today's date in UTC and in the owner's timezone, and the timezone", () => {
  it('both forms: the date and weekday in UTC, the owner timezone, the date, weekday and time there', async () => {
    const r = await call('get_me', {});
    expect(r.isError).toBe(false);
    const today = {
      now: '2026-11-28T00:29:00Z',
      date_utc: '2026-11-28',
      weekday_utc: 'Saturday',
      timezone: 'America/New_York',
      date: '2026-11-27',
      weekday: 'Friday',
      time: '19:29',
    };
    expect(r.structured.today).toEqual(today);
    expect(r.text).toContain(`"today":${JSON.stringify(today)}`);
    // The rest of get_me is as the API gave it.
    expect(r.structured).toMatchObject({ object: 'me', owner: { id: 'usr_ben', timezone: 'America/New_York' } });
  });
});

describe('a refused day or time states today, and relative words stay refused', () => {
  it.each([
    ['create_task', { due_date: 'next monday' }, 'due_date'],
    ['create_task', { due_time: '3pm' }, 'due_time'],
    ['list_tasks', { due_before: 'tomorrow' }, 'due_before'],
    ['list_leads', { updated_since: 'last week' }, 'updated_since'],
    ['list_meetings', { starts_after: '2026-11-31T09:00:00Z' }, 'starts_after'],
    ['list_notes', { created_since: 'yesterday' }, 'created_since'],
  ])('%s %j: refused, naming the argument, with today in UTC and in the owner timezone', async (tool, args, param) => {
    const lead = sb.store.leads.inGroup('acme')[0]!.id;
    const r = await call(tool, tool === 'create_task' ? { lead_id: lead, ...args } : args);
    expect(r.isError).toBe(true);
    const { error } = JSON.parse(r.text.split('\n')[0]!) as { error: { code: string; message: string; param: string } };
    expect(error).toMatchObject({ code: 'invalid_request', param });
    expect(error.message).toContain(TODAY_LINE);
  });

  it('a refusal of anything else does not', async () => {
    const r = await call('list_leads', { status: ['nope'] });
    expect(r.isError).toBe(true);
    expect(r.text).not.toContain('Today is');
  });

  it('the instructions say where today is found', () => {
    expect(SERVER_INSTRUCTIONS).toMatch(/Words such as tomorrow are refused: count from today, which get_me gives/);
  });
});
