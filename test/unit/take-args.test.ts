import type { CallToolResult } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import { dateTimeProblem, dayProblem } from '../../src/api/dates.js';
import { takeArgs } from '../../src/mcp/pipeline/take-args.js';
import { ALL_TOOLS } from '../../tools/index.js';
import { useInProcessServer } from '../helpers/in-process.js';

// Take what agents send: forms whose meaning is plain cost no retry, and the answer says what was read otherwise.

const server = useInProcessServer(230);
const call = async (name: string, args: Record<string, unknown>) => {
  const r = (await server.client.callTool({ name, arguments: args })) as CallToolResult;
  return { isError: r.isError === true, structured: r.structuredContent as any, text: (r.content[0] as { text: string }).text };
};
const tool = (name: string) => ALL_TOOLS.find((t) => t.name === name)!;
/** The answer's structuredContent is what the tool's output schema says it is. */
const validOutput = (name: string, structured: unknown) => expect(tool(name).output.safeParse(structured).success).toBe(true);
const ids = (r: { structured: { data: { id: string }[] } }) => r.structured.data.map((x) => x.id);

describe('cursor null means the first page', () => {
  const withCursor = ALL_TOOLS.filter((t) => t.endpoint.query.cursor?.kind === 'cursor');

  it.each(withCursor.map((t) => [t.name, t] as const))('%s: cursor null is read as no cursor', (_name, t) => {
    const taken = takeArgs(t, { cursor: null });
    expect(taken.args).toEqual({});
    const issues = t.input.safeParse(taken.args).error?.issues ?? [];
    expect(issues.filter((i) => i.path[0] === 'cursor')).toEqual([]);
  });

  it('list_leads with cursor null answers the first page', async () => {
    const first = await call('list_leads', { limit: 5 });
    const again = await call('list_leads', { limit: 5, cursor: null });
    expect(again.isError).toBe(false);
    expect(ids(again)).toEqual(ids(first));
  });
});

describe('a limit above 200 is clamped, and the answer says so in both forms', () => {
  it('list_leads limit 500 answers a page of 200 with a notice', async () => {
    const r = await call('list_leads', { limit: 500, fields: ['status'] });
    expect(r.isError).toBe(false);
    expect(r.structured.data).toHaveLength(200);
    expect(r.structured.has_more).toBe(true);
    const notice = 'limit 500 is more than one page holds: 200 was used.';
    expect(r.structured.notices).toEqual([notice]);
    expect(r.text).toContain(`\nNote: ${notice}`);
    validOutput('list_leads', r.structured);
  });

  it('other bounds stay errors: limit 0 is refused', async () => {
    const r = await call('list_leads', { limit: 0 });
    expect(r.isError).toBe(true);
    expect(r.text).toMatch(/"param":"limit"/);
  });

  it('a call that needed no change carries no notices', async () => {
    const r = await call('list_leads', { limit: 3 });
    expect(r.structured.notices).toBeUndefined();
    expect(r.text).not.toMatch(/\nNote: /);
  });
});

describe('a single value is taken where a list of it is', () => {
  it('list_leads status "interested" answers as status ["interested"]', async () => {
    const one = await call('list_leads', { status: 'interested', limit: 50 });
    const list = await call('list_leads', { status: ['interested'], limit: 50 });
    expect(one.isError).toBe(false);
    expect(one.structured.data.length).toBeGreaterThan(0);
    expect(ids(one)).toEqual(ids(list));
  });

  it('every array argument of every tool takes its one value: derived from the schema, not per tool', () => {
    let seen = 0;
    for (const t of ALL_TOOLS) {
      for (const [name, schema] of Object.entries(t.input.shape)) {
        if (!JSON.stringify((schema as { toJSONSchema?: () => unknown }).toJSONSchema?.() ?? {}).includes('"type":"array"')) continue;
        seen++;
        expect((takeArgs(t, { [name]: 'x' }).args as Record<string, unknown>)[name], `${t.name}.${name}`).toEqual(['x']);
      }
    }
    expect(seen).toBeGreaterThan(10);
  });

  it('a bad single value is refused naming the list and its values', async () => {
    const r = await call('list_leads', { status: 'warm' });
    expect(r.isError).toBe(true);
    expect(r.text).toMatch(/status/);
    expect(r.text).toMatch(/interested/);
  });
});

describe('a plain day where a date-time is taken means its start in UTC, said in the answer', () => {
  it('list_leads updated_since 2026-11-19 answers as 2026-11-19T00:00:00Z, with a notice', async () => {
    const day = await call('list_leads', { updated_since: '2026-11-19', limit: 50 });
    const instant = await call('list_leads', { updated_since: '2026-11-19T00:00:00Z', limit: 50 });
    expect(day.isError).toBe(false);
    expect(ids(day)).toEqual(ids(instant));
    const notice = 'updated_since 2026-11-19 is a day: taken as its start in UTC, 2026-11-19T00:00:00Z.';
    expect(day.structured.notices).toEqual([notice]);
    expect(day.text).toContain(`\nNote: ${notice}`);
    validOutput('list_leads', day.structured);
  });
});

describe('date errors say what is wrong with the value', () => {
  it.each([
    ['2026-11-31', '2026-11-31 is not a day: November 2026 has 30 days'],
    ['2027-02-29', '2027-02-29 is not a day: February 2027 has 28 days'],
    ['2026-13-01', '2026-13-01 has no month 13: months run 01 to 12'],
    ['11/30/2026', '11/30/2026 is not in the form YYYY-MM-DD (the year first, e.g. 2026-01-31)'],
    ['2026-1-5', '2026-1-5 needs two digits for the month and the day (YYYY-MM-DD, e.g. 2026-01-05)'],
    ['2026-11-30T09:00:00Z', '2026-11-30T09:00:00Z is a date-time; give the day alone, YYYY-MM-DD (2026-11-30)'],
  ])('a day %s: %s', (value, why) => {
    expect(dayProblem(value)).toBe(why);
  });

  it.each([
    ['2026-11-31T09:00:00Z', '2026-11-31 is not a day: November 2026 has 30 days'],
    ['2026-11-24 10:00Z', '2026-11-24 10:00Z needs a T between the day and the time (2026-11-24T10:00Z)'],
    ['2026-11-24T10:00', '2026-11-24T10:00 has no time zone: end it with Z (UTC) or an offset such as +01:00'],
    ['2026-11-24T25:00:00Z', '2026-11-24T25:00:00Z has no hour 25: hours run 00 to 23'],
    ['yesterday', '"yesterday" is not an ISO 8601 date-time, e.g. 2026-01-31T09:00:00Z'],
  ])('a date-time %s: %s', (value, why) => {
    expect(dateTimeProblem(value)).toBe(why);
  });

  it('create_task due_date 2026-11-31 is refused saying November 2026 has 30 days', async () => {
    const lead = server.sb.store.leads.inGroup('acme')[0]!.id;
    const r = await call('create_task', { lead_id: lead, due_date: '2026-11-31' });
    expect(r.isError).toBe(true);
    // Today's date follows, as after every refused day (test/unit/today.test.ts).
    expect(r.text).toContain(`"message":"Argument 'due_date': 2026-11-31 is not a day: November 2026 has 30 days. Today is `);
  });

  it('valid values pass: a day, a date-time with an offset and with fractions', () => {
    expect(dayProblem('2028-02-29')).toBeNull();
    expect(dateTimeProblem('2026-11-24T10:00:00+01:00')).toBeNull();
    expect(dateTimeProblem('2026-11-24T10:00:00.123Z')).toBeNull();
  });
});

describe("the API's input alias dnc is taken where the slot does not list it", () => {
  it('list_leads status dnc (alone or in a list) reads as unsubscribed, and the answer says so in both forms', async () => {
    const plain = await call('list_leads', { status: ['unsubscribed'], limit: 5 });
    expect(ids(plain).length).toBeGreaterThan(0);
    for (const status of ['dnc', ['interested', 'dnc']] as const) {
      const taken = takeArgs(tool('list_leads'), { status });
      expect(taken.args).toEqual({ status: Array.isArray(status) ? ['interested', 'unsubscribed'] : ['unsubscribed'] });
      expect(taken.notices).toEqual(["status dnc is the API's input alias of unsubscribed: read as unsubscribed."]);
    }
    const r = await call('list_leads', { status: 'dnc', limit: 5 });
    expect(r.isError).toBe(false);
    expect(ids(r)).toEqual(ids(plain));
    expect(r.structured.notices).toContain("status dnc is the API's input alias of unsubscribed: read as unsubscribed.");
    expect(r.text).toContain("status dnc is the API's input alias of unsubscribed");
  });

  it('set_status keeps dnc as sent: its slot takes the alias, and the API reads it', () => {
    const taken = takeArgs(tool('set_status'), { lead_id: 'lead_x', status: 'dnc' });
    expect(taken).toEqual({ args: { lead_id: 'lead_x', status: 'dnc' }, notices: [] });
  });
});
