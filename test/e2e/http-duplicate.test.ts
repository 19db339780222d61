import type { Client, CallToolResult } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Sandbox, startSandbox } from '../../src/sandbox/index.js';
import { TEST_NOW } from '../../scripts/harness/sandbox.js';
import { type HttpBinary, connectHttp, startHttpBinary } from '../../scripts/harness/http.js';

// Issue 31 finding 13: over HTTP the same create_task from a second session of the same key,
// 2 s later, created a second task. The duplicate guard is the key's, whatever the session.

let sb: Sandbox;
let bin: HttpBinary;
const opened: Client[] = [];

beforeAll(async () => {
  sb = await startSandbox({ port: 0, now: TEST_NOW, logLevel: 'silent' });
  bin = await startHttpBinary(['--base-url', sb.baseUrl]);
});
afterAll(async () => {
  await Promise.all(opened.map((c) => c.close().catch(() => undefined)));
  await bin?.stop('SIGKILL');
  await sb?.close();
});

async function session(key: string): Promise<Client> {
  const c = await connectHttp(bin.url, `Bearer ${key}`);
  opened.push(c);
  return c;
}

const create = (c: Client, args: Record<string, unknown>) => c.callTool({ name: 'create_task', arguments: args }) as Promise<CallToolResult>;
const tasksWith = (marker: string) => [...sb.store.tasks.all()].filter((t) => t.notes === marker).length;

describe('the duplicate guard belongs to the key, not the session (HTTP, keys from requests)', () => {
  it('the same create_task from a second session of the same key stores nothing and names the first', async () => {
    const [a, b] = [await session(sb.keys.admin), await session(sb.keys.admin)];
    const marker = `two-sessions-${Date.now()}`;
    const args = { workspace: 'acme', lead_id: sb.store.leads.inGroup('acme')[1]!.id, notes: marker, due_date: '2026-11-24' };
    const first = await create(a, args);
    const second = await create(b, args);
    expect(first.isError, JSON.stringify(first.content)).toBeFalsy();
    expect(second.isError, JSON.stringify(second.content)).toBeFalsy();
    expect(second.structuredContent).toMatchObject({ created: false, duplicate_of: (first.structuredContent as { id: string }).id });
    expect(tasksWith(marker)).toBe(1);
  });

  it("another key's identical create_task is its own: it is sent", async () => {
    const marker = `two-keys-${Date.now()}`;
    const args = { workspace: 'acme', lead_id: sb.store.leads.inGroup('acme')[2]!.id, notes: marker, due_date: '2026-11-24' };
    const first = await create(await session(sb.keys.admin), args);
    const other = await create(await session(sb.keys.rep), args);
    expect(first.isError, JSON.stringify(first.content)).toBeFalsy();
    expect(other.isError, JSON.stringify(other.content)).toBeFalsy();
    expect((other.structuredContent as { created?: boolean }).created).not.toBe(false);
    expect(tasksWith(marker)).toBe(2);
  });
});
