import type { CallToolResult } from '@modelcontextprotocol/server';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { MAX_BATCH } from '../../src/mcp/declare/batch.js';
import { DEFAULT_MESSAGES } from '../../src/mcp/reads/conversation.js';
import { MANY_LEADS_MAX } from '../../src/mcp/reads/conversations.js';
import { LIST_LEADS_PAGE } from '../../tools/leads.js';
import { UNTRUSTED_LINE } from '../../src/mcp/view/fence.js';
import { SERVER_INSTRUCTIONS } from '../../src/mcp/instructions.js';
import { ALL_TOOLS } from '../../tools/index.js';
import { SPECIAL_EMAILS } from '../../src/sandbox/seed/leads.js';
import { useInProcessServer } from '../helpers/in-process.js';

const server = useInProcessServer();

type Row = Record<string, unknown>;
/** Envelope and marker keys whose text form is a sentence or the standing note rather than a label. */
const NOT_LABELLED = new Set(['object', 'untrusted']);

/** Fields a sentence of the text states rather than a label: a page's "no more pages", a conversation's header and bodies. */
const SAID_IN_WORDS: Record<string, RegExp> = {
  has_more: /\bmore\b/,
  offset: /numbers \d+-\d+ (counted )?from the newest/,
  older_not_shown: /\d+ older/,
  longer_than_api_serves: /The thread is longer than|the API's cap/,
  body_format: /source="email"/,
};

const isEmpty = (v: unknown) =>
  v === null || (Array.isArray(v) && v.length === 0) || (typeof v === 'object' && v !== null && !Array.isArray(v) && Object.keys(v).length === 0);

const unfenced = (v: string) => v.replace(/<\/?untrusted-\w+[^>]*>/g, '');

/** Every key at any depth, `effects` whole (verbatim as the API sent it); where an empty value sits; every leaf (key and value). */
function walk(v: unknown, keys: Set<string>, empties: string[], path = '', leaves: [string, unknown][] = []): [string, unknown][] {
  if (Array.isArray(v)) {
    for (const [i, x] of v.entries()) walk(x, keys, empties, `${path}[${i}]`, leaves);
  } else if (v && typeof v === 'object') {
    for (const [k, x] of Object.entries(v)) {
      keys.add(k);
      if (k === 'effects') continue;
      if (isEmpty(x)) empties.push(`${path}.${k}`);
      if (Array.isArray(x) && x.every((i) => typeof i !== 'object')) for (const i of x) leaves.push([k, i]);
      else if (x === null || typeof x !== 'object') leaves.push([k, x]);
      walk(x, keys, empties, `${path}.${k}`, leaves);
    }
  }
  return leaves;
}

/** Whether the text shows this field: by its name (a label, a header, a flag) or, in prose, by its value. */
function shownIn(text: string, names: Set<string>, key: string, value: unknown): boolean {
  if (names.has(key) || names.has(`word:${key}`)) return true;
  if (SAID_IN_WORDS[key]?.test(text)) return true;
  if (typeof value === 'string') return text.includes(unfenced(value)) || text.includes(unfenced(value).replace(/\n/g, ' '));
  if (typeof value === 'number') return new RegExp(`\\b${value}\\b`).test(text);
  return false;
}

/** The field names the text shows: JSON keys, `k=` facts, `k: ` labels, table headers and flags. */
function textNames(text: string): { names: Set<string>; empties: string[] } {
  const names = new Set<string>();
  const empties: string[] = [];
  // A table's effects column carries the API's effects verbatim, as an `effects: ` line does.
  let effectsColumn = -1;
  for (const raw of text.split('\n')) {
    const cells = /^\| .* \|$/.test(raw) ? raw.slice(2, -2).split(' | ') : null;
    if (cells?.includes('effects')) effectsColumn = cells.indexOf('effects');
    const line = cells && effectsColumn >= 0 && !cells.includes('effects') ? `| ${cells.filter((_, i) => i !== effectsColumn).join(' | ')} |` : raw;
    if (cells && effectsColumn >= 0 && cells.length > effectsColumn) names.add('effects');
    if (line === UNTRUSTED_LINE || line.startsWith('effects: ')) {
      if (line.startsWith('effects: ')) names.add('effects');
      continue;
    }
    try {
      const parsed = JSON.parse(line) as unknown;
      if (parsed && typeof parsed === 'object') {
        const keys = new Set<string>();
        walk(parsed, keys, empties);
        for (const k of keys) names.add(k);
        continue;
      }
    } catch {}
    for (const m of line.matchAll(/(?:^|[\s(,|{>"-])"?([a-z][a-z0-9_]*)"?(=|: ?|":)/g)) names.add(m[1]!);
    for (const m of line.matchAll(/([a-z][a-z0-9_]*)(=null|=\[\]|":null|":\[\]|":\{\})/g)) empties.push(m[1]!);
    if (/^\| .* \|$/.test(line))
      for (const cell of line.slice(2, -2).split(' | ')) if (/^[a-z][a-z0-9_, ]*$/.test(cell)) for (const c of cell.split(', ')) names.add(c);
    for (const m of line.matchAll(/\b([a-z][a-z0-9_]*)\b/g)) if (m[1]!.includes('_') || m[1]!.length > 2) names.add(`word:${m[1]}`);
  }
  return { names, empties };
}

/** Valid arguments for every tool, from the seeded sandbox. */
async function argsFor(call: (n: string, a: Row) => Promise<CallToolResult>): Promise<Record<string, Row>> {
  const store = server.sb.store;
  const leads = store.leads.inGroup('acme').filter((l) => l.state === 'active');
  const lead = leads[0]!;
  const filed = store.leadByEmail.get(`acme\u0000${SPECIAL_EMAILS.attachments}`)!;
  await call('get_conversation', { lead_id: filed.id });
  const withFile = store.conversations.get(filed.id)!.find((m) => m.attachments.length > 0)!;
  const meeting = store.meetings.inGroup('acme').find((m) => !m.outcome && !m.locked)!;
  const task = (await call('create_task', { lead_id: leads[5]!.id, notes: 'For the forms test' })).structuredContent as Row;
  const gone = (await call('create_task', { lead_id: leads[5]!.id, notes: 'To delete' })).structuredContent as Row;
  const eventType = store.eventTypes.inGroup('acme')[0]!;
  const template = store.templates.inGroup('acme')[0]!;
  const member = store.membersOf('acme')[0]!.member_id;
  const tag = store.leadTags.inGroup('acme')[0]!.id;
  return {
    get_lead: { lead_id: lead.id },
    list_replies: { lead_id: lead.id },
    get_assignees: { lead_id: lead.id },
    set_assignees: { lead_id: leads[1]!.id, member_ids: [member] },
    get_lead_tags: { lead_id: lead.id },
    set_lead_tags: { lead_id: leads[1]!.id, tag_ids: [tag] },
    set_priority: { lead_ids: [leads[1]!.id], priority: true },
    set_status: { lead_id: leads[2]!.id, status: 'interested' },
    mark_read: { lead_id: leads[2]!.id },
    mark_unread: { lead_id: leads[2]!.id },
    mark_responded: { lead_id: leads[2]!.id },
    mark_booked: { lead_id: leads[3]!.id },
    mark_disqualified: { lead_id: leads[4]!.id },
    get_conversation: { lead_id: lead.id },
    download_attachment: { lead_id: withFile.lead_id, attachment_id: withFile.attachments[0]!.id },
    create_task: { lead_id: leads[6]!.id, notes: 'Call back' },
    update_task: { task_id: task.id, notes: 'Call back Tuesday', due_date: null },
    complete_task: { task_id: task.id },
    delete_task: { task_id: gone.id },
    create_note: { lead_id: leads[6]!.id, body: 'Asked for pricing' },
    get_meeting: { meeting_id: meeting.id },
    set_meeting_outcome: { meeting_id: meeting.id, outcome: 'showed' },
    get_event_type: { event_type_id: eventType.id },
    get_slots: { event_type_id: eventType.id },
    get_template: { template_id: template.id },
    render_template: { template_id: template.id, lead_id: lead.id },
  };
}

describe('both forms say the same: a field is in both or in neither, nulls and empties alike', () => {
  it('the instructions state the rule', () => {
    expect(SERVER_INSTRUCTIONS).toMatch(/both forms/i);
    expect(SERVER_INSTRUCTIONS).toMatch(/null/);
  });

  it('every tool of the registry in each of its forms (lead_ids too), run: no null or empty in either form (but effects, verbatim), every field of structuredContent named in the text and its words the same there', async () => {
    await server.client.listTools();
    const call = async (name: string, args: Row) => (await server.client.callTool({ name, arguments: args })) as CallToolResult;
    const table = await argsFor(call);
    const seen: string[] = [];
    const wrong: string[] = [];
    const check = (ok: boolean, what: string) => {
      if (!ok) wrong.push(what);
    };
    // Every form of a tool: a batched write with lead_ids as well as lead_id, a set with a member who has no name.
    const leads = server.sb.store.leads.inGroup('acme').filter((l) => l.state === 'active');
    const members = server.sb.store
      .membersOf('acme')
      .filter((m) => m.assignable)
      .map((m) => m.member_id);
    const forms = ALL_TOOLS.flatMap((tool) => {
      const one = { tool, args: table[tool.name] ?? {} };
      if (tool.batch) return [one, { tool, args: { ...one.args, lead_id: undefined, lead_ids: [leads[7]!.id, leads[8]!.id] } }];
      if (tool.name === 'set_assignees') return [one, { tool, args: { lead_id: leads[1]!.id, member_ids: members } }];
      return [one];
    });
    for (const { tool, args } of forms) {
      const r = await call(tool.name, args);
      // A field the call set to null, or asked for in fields, is shown even when empty, in both forms.
      const asked = new Set([...Object.keys(args).filter((k) => args[k] === null), ...((args.fields as string[]) ?? [])]);
      const unasked = (where: string) => !asked.has(where.replace(/^.*\./, ''));
      seen.push(tool.name);
      expect(r.isError, `${tool.name}: ${JSON.stringify(r.content).slice(0, 300)}`).toBeFalsy();
      const text = (r.content[0] as { text: string }).text;
      const keys = new Set<string>();
      const empties: string[] = [];
      const leaves = walk(r.structuredContent, keys, empties);
      check(empties.filter(unasked).length === 0, `${tool.name}: empty in structuredContent: ${empties.join(', ')}`);
      const shown = textNames(text);
      check(shown.empties.filter(unasked).length === 0, `${tool.name}: empty in the text: ${shown.empties.join(', ')}`);
      for (const k of asked) check(keys.has(k) && shown.names.has(k), `${tool.name}: ${k} was set or asked for, yet a form leaves it out`);
      const missing = [...new Set(leaves.filter(([k, v]) => !NOT_LABELLED.has(k) && !shownIn(text, shown.names, k, v)).map(([k]) => k))];
      check(missing.length === 0, `${tool.name}: structuredContent fields the text does not name: ${missing.join(', ')}`);
      // The words are the same: a word of structuredContent (an outcome, a status) is in the text as it is, not another word for it.
      const plain = unfenced(text);
      const otherWords = [
        ...new Set(
          leaves
            .filter(
              ([k, v]) =>
                !NOT_LABELLED.has(k) &&
                typeof v === 'string' &&
                ![unfenced(v), unfenced(v).replace(/\n/g, ' '), JSON.stringify(unfenced(v)).slice(1, -1)].some((w) => plain.includes(w)),
            )
            .map(([k, v]) => `${k}=${String(v).slice(0, 40)}`),
        ),
      ];
      check(otherWords.length === 0, `${tool.name}: values of structuredContent the text says otherwise or not at all: ${otherWords.join(', ')}`);
    }
    expect(wrong).toEqual([]);
    expect([...new Set(seen)]).toEqual(ALL_TOOLS.map((t) => t.name));
  });

  it('a field asked for in fields is shown even when null, in both forms', async () => {
    const lead = server.sb.store.leads.inGroup('acme').find((l) => l.state === 'active' && !l.disqualified_at)!;
    const r = (await server.client.callTool({
      name: 'get_lead',
      arguments: { lead_id: lead.id, fields: ['email', 'status', 'disqualified_at'] },
    })) as CallToolResult;
    expect(r.structuredContent).toMatchObject({ id: lead.id, disqualified_at: null });
    expect((r.content[0] as { text: string }).text).toContain('"disqualified_at":null');
  });

  it('a repeated create says in structuredContent that nothing was created, with none of the earlier record as if new', async () => {
    const lead = server.sb.store.leads.inGroup('acme')[9]!;
    const args = { lead_id: lead.id, notes: 'Send the pricing sheet', due_date: '2026-12-03' };
    const first = (await server.client.callTool({ name: 'create_task', arguments: args })) as CallToolResult;
    const again = (await server.client.callTool({ name: 'create_task', arguments: args })) as CallToolResult;
    const id = (first.structuredContent as Row).id;
    expect(again.structuredContent).toEqual({
      object: 'task',
      id,
      created: false,
      duplicate_of: id,
      seconds_ago: expect.any(Number),
      effects: { provider_writes: [] },
    });
    const text = (again.content[0] as { text: string }).text;
    for (const k of ['created=false', `duplicate_of=${String(id)}`, 'seconds_ago=']) expect(text).toContain(k);
    expect(text).not.toContain('2026-12-03');
  });

  it('README, docs/tools.md and the instructions describe the defaults, the batch calls and the forms rule', () => {
    const readme = readFileSync('README.md', 'utf8').replace(/\s+/g, ' ');
    const reference = readFileSync('docs/tools.md', 'utf8').replace(/\s+/g, ' ');
    for (const [name, doc] of [
      ['README.md', readme],
      ['docs/tools.md', reference],
      ['instructions', SERVER_INSTRUCTIONS],
    ] as const) {
      expect(doc, name).toContain(`${LIST_LEADS_PAGE} rows`);
      expect(doc, name).toContain(`newest ${DEFAULT_MESSAGES} messages`);
      expect(doc, name).toMatch(new RegExp(`up to ${MAX_BATCH}\\W+lead_ids|lead_ids\\W+\\(up to ${MAX_BATCH}\\)`));
      expect(doc, name).toMatch(new RegExp(`up to ${MANY_LEADS_MAX}\\W+(lead_ids|leads)`));
      expect(doc, name).toMatch(/null, empty list or empty object is left out of/);
    }
  });
});
