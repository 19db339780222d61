import type { Client, CallToolResult } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ReplyInboxClient } from '../../src/client/index.js';
import { KeyWritesRegistry } from '../../src/mcp/writes/key-writes.js';
import type { Sandbox } from '../../src/sandbox/index.js';
import { type Gateway, startGateway } from '../../scripts/harness/gateway.js';
import { sandbox } from '../client/helpers.js';
import { inProcessServer } from '../helpers/in-process.js';
import { eventually, turn } from '../helpers/turns.js';

// Issue 31, findings 1, 2 and 13: a create that may have been applied must not be sent twice,
// whether it was cancelled after sending, answered oddly, or repeated from another session.

let sb: Sandbox;
let gw: Gateway;
let api: ReplyInboxClient;
let client: Client;
let close: () => Promise<void>;

beforeAll(async () => {
  sb = await sandbox({ leads: 20 });
  gw = await startGateway(sb.baseUrl);
  api = new ReplyInboxClient({ apiKey: sb.keys.admin, baseUrl: gw.url, logLevel: 'silent' });
  ({ client, close } = await inProcessServer(sb, { api }));
});
afterAll(async () => {
  await close?.();
  await api?.close();
  await gw?.close();
  await sb?.close();
});

const leadAt = (i: number) => sb.store.leads.inGroup('acme')[i]!.id;
const tasksWith = (marker: string) => [...sb.store.tasks.all()].filter((t) => t.notes === marker).length;
const posts = (from: number) => gw.requests.slice(from).filter((r) => r.startsWith('POST')).length;
const call = (args: Record<string, unknown>, signal?: AbortSignal) =>
  client.callTool({ name: 'create_task', arguments: args }, signal ? { signal } : {}) as Promise<CallToolResult>;
/** The tool error's code and its next step. */
const refusal = (r: CallToolResult) => {
  expect(r.isError, JSON.stringify(r.content)).toBe(true);
  const text = (r.content[0] as { text: string }).text;
  const nl = text.indexOf('\n');
  return { code: (JSON.parse(text.slice(0, nl)) as { error: { code: string } }).error.code, next: text.slice(nl + 1) };
};
/** Each call's own notes, so that what a test counts is only what it made. */
let marked = 0;
const marker = (what: string) => `${what}-${++marked}`;

/**
 * A create_task the API applies and answers late (the gateway holds its answer): resolves once
 * it is stored; `cancel` is the MCP client giving up (notifications/cancelled), `answer` lets the answer go.
 */
async function appliedNotAnswered(args: { notes: string }) {
  let release!: () => void;
  const late = new Promise<void>((r) => (release = r));
  gw.hold = (method) => (method === 'POST' ? late : null);
  const gaveUp = new AbortController();
  const sent = call(args, gaveUp.signal).catch((e: unknown) => e);
  await eventually(
    'the API applied the write',
    () => tasksWith(args.notes) === 1,
    () => gw.requests,
  );
  return {
    cancel: async () => {
      gaveUp.abort('the client gave up waiting');
      await sent;
    },
    answer: () => {
      gw.hold = () => null;
      release();
    },
  };
}

describe('a create_task cancelled after it was sent (notifications/cancelled) is never sent again (issue 31 finding 1)', () => {
  it('the identical call sent while it is in flight, and again at once after the cancel, stores one task: both are refused unsent', async () => {
    const notes = marker('cancelled');
    const args = { lead_id: leadAt(1), notes, due_date: '2026-11-24' };
    const sentBefore = gw.requests.length;
    const first = await appliedNotAnswered(args);
    const twin = call(args);
    // The twin reaches the guard while the first is still out.
    for (let i = 0; i < 20; i++) await turn();
    await first.cancel();
    const inFlight = refusal(await twin);
    const again = refusal(await call(args));
    first.answer();
    expect(inFlight.code).toBe('duplicate_unsettled');
    expect(again.code).toBe('duplicate_unsettled');
    expect(again.next).toContain(`Check with list_tasks (workspace=acme lead_id=${args.lead_id})`);
    expect(posts(sentBefore)).toBe(1);
    expect(tasksWith(notes)).toBe(1);
  });

  it('once list_tasks for that lead has been read, the same call is sent again', async () => {
    const notes = marker('checked');
    const args = { lead_id: leadAt(2), notes, due_date: '2026-11-24' };
    const first = await appliedNotAnswered(args);
    await first.cancel();
    first.answer();
    expect(refusal(await call(args)).code).toBe('duplicate_unsettled');
    const list = (await client.callTool({ name: 'list_tasks', arguments: { lead_id: args.lead_id } })) as CallToolResult;
    expect(list.isError).toBeFalsy();
    const sent = (await call(args)) as CallToolResult;
    expect(sent.isError).toBeFalsy();
    expect(tasksWith(notes)).toBe(2);
  });
});

describe('a create_task applied but answered 201 with a 17 MiB body, or 303, is outcome_unknown and never sent again (issue 31 finding 2)', () => {
  for (const [what, fault] of [
    ['201 with a 17 MiB body', { status: 201, bytes: 17 * 1024 * 1024 }],
    ['303', 303],
  ] as const) {
    it(`${what}: outcome_unknown naming list_tasks, then the identical call is refused unsent; one task stored`, async () => {
      const notes = marker(`odd-${fault === 303 ? 303 : 201}`);
      const args = { lead_id: leadAt(3), notes, due_date: '2026-11-24' };
      const sentBefore = gw.requests.length;
      gw.fault = (method) => (method === 'POST' ? fault : null);
      const first = refusal(await call(args));
      gw.fault = () => null;
      const again = refusal(await call(args));
      expect(first.code).toBe('outcome_unknown');
      expect(first.next).toContain(`Check with list_tasks (workspace=acme lead_id=${args.lead_id})`);
      expect(first.next).not.toMatch(/ask for less|try again later/i);
      expect(again.code).toBe('duplicate_unsettled');
      expect(posts(sentBefore)).toBe(1);
      expect(tasksWith(notes)).toBe(1);
    });
  }
});

describe('the duplicate guard belongs to the key, not the session (issue 31 finding 13)', () => {
  it('two servers of one key sharing its KeyWrites: the same create_task from the second stores nothing and names the first', async () => {
    const writes = new KeyWritesRegistry().forKey(sb.keys.admin);
    const [a, b] = [await inProcessServer(sb, { writes }), await inProcessServer(sb, { writes })];
    try {
      const notes = marker('two-sessions');
      const args = { lead_id: leadAt(4), notes, due_date: '2026-11-24' };
      const first = (await a.client.callTool({ name: 'create_task', arguments: args })) as CallToolResult;
      const second = (await b.client.callTool({ name: 'create_task', arguments: args })) as CallToolResult;
      expect(first.isError).toBeFalsy();
      expect(second.isError).toBeFalsy();
      const id = (first.structuredContent as { id: string }).id;
      expect(second.structuredContent).toMatchObject({ created: false, duplicate_of: id });
      expect(tasksWith(notes)).toBe(1);
    } finally {
      await a.close();
      await b.close();
    }
  });

  it('a delete made through one server of the key is "already deleted" through the other, not a bare not_found', async () => {
    const writes = new KeyWritesRegistry().forKey(sb.keys.admin);
    const [a, b] = [await inProcessServer(sb, { writes }), await inProcessServer(sb, { writes })];
    try {
      const made = (await a.client.callTool({
        name: 'create_task',
        arguments: { lead_id: leadAt(5), notes: marker('to delete'), due_date: '2026-11-24' },
      })) as CallToolResult;
      const id = (made.structuredContent as { id: string }).id;
      expect(((await a.client.callTool({ name: 'delete_task', arguments: { task_id: id } })) as CallToolResult).isError).toBeFalsy();
      const again = (await b.client.callTool({ name: 'delete_task', arguments: { task_id: id } })) as CallToolResult;
      expect(again.isError, JSON.stringify(again.content)).toBeFalsy();
      expect(again.structuredContent).toMatchObject({ id, already_deleted: true });
    } finally {
      await a.close();
      await b.close();
    }
  });

  it('a registry gives one key the same KeyWrites whichever client asks, and another key its own', () => {
    const registry = new KeyWritesRegistry();
    expect(registry.forKey(sb.keys.admin)).toBe(registry.forKey(`${sb.keys.admin}`));
    expect(registry.forKey(sb.keys.admin)).not.toBe(registry.forKey(sb.keys.rep));
  });
});
