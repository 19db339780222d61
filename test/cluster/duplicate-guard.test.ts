import type { Client, CallToolResult } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/index.js';
import { type Gateway, startGateway } from '../../scripts/harness/gateway.js';
import { type HttpBinary, connectHttp, startHttpBinary } from '../../scripts/harness/http.js';
import { type TestRedis, startRedis } from '../../scripts/harness/redis.js';
import { sandbox } from '../client/helpers.js';

// Issue 31 finding 13, across instances: with --redis the duplicate guard of a key is kept
// in Redis, so two server instances behind one balancer guard the key's creates as one.

let redis: TestRedis;
let sb: Sandbox;
let gw: Gateway;
let instances: HttpBinary[];
let a: Client;
let b: Client;

beforeAll(async () => {
  redis = await startRedis();
  sb = await sandbox({ leads: 20 });
  gw = await startGateway(sb.baseUrl);
  instances = await Promise.all([0, 1].map(() => startHttpBinary(['--base-url', gw.url, '--redis', redis.url])));
  const sessions = await Promise.all(instances.map((i) => connectHttp(i.url, `Bearer ${sb.keys.admin}`)));
  a = sessions[0]!;
  b = sessions[1]!;
});
afterAll(async () => {
  await Promise.all([a, b].map((c) => c?.close().catch(() => undefined)));
  await Promise.all((instances ?? []).map((i) => i.stop()));
  await gw?.close();
  await sb?.close();
  await redis?.stop();
});

const leadAt = (i: number) => sb.store.leads.inGroup('acme')[i]!.id;
const tasksWith = (marker: string) => [...sb.store.tasks.all()].filter((t) => t.notes === marker).length;
const call = (c: Client, name: string, args: Record<string, unknown>) => c.callTool({ name, arguments: args }) as Promise<CallToolResult>;
const codeOf = (r: CallToolResult) => {
  expect(r.isError, JSON.stringify(r.content)).toBe(true);
  const text = (r.content[0] as { text: string }).text;
  return (JSON.parse(text.slice(0, text.indexOf('\n'))) as { error: { code: string } }).error.code;
};

describe('two instances sharing Redis guard one key as one', () => {
  it('the same create_task on the second instance stores nothing and names the task the first made', async () => {
    const marker = `instances-${Date.now()}`;
    const args = { workspace: 'acme', lead_id: leadAt(1), notes: marker, due_date: '2026-11-24' };
    const first = await call(a, 'create_task', args);
    const second = await call(b, 'create_task', args);
    expect(first.isError, JSON.stringify(first.content)).toBeFalsy();
    expect(second.structuredContent).toMatchObject({ created: false, duplicate_of: (first.structuredContent as { id: string }).id });
    expect(tasksWith(marker)).toBe(1);
  });

  it('a create answered 303 on one instance holds the identical call back on the other, until list_tasks for the lead is read on either', async () => {
    const marker = `instances-303-${Date.now()}`;
    const args = { workspace: 'acme', lead_id: leadAt(2), notes: marker, due_date: '2026-11-24' };
    gw.fault = (method) => (method === 'POST' ? 303 : null);
    const first = await call(a, 'create_task', args);
    gw.fault = () => null;
    expect(codeOf(first)).toBe('outcome_unknown');
    expect(codeOf(await call(b, 'create_task', args))).toBe('duplicate_unsettled');
    expect(tasksWith(marker)).toBe(1);
    expect((await call(b, 'list_tasks', { workspace: 'acme', lead_id: args.lead_id })).isError).toBeFalsy();
    expect((await call(a, 'create_task', args)).isError).toBeFalsy();
    expect(tasksWith(marker)).toBe(2);
  });

  it('every name the guard keeps in Redis has an expiry, and no name or value holds the key', async () => {
    const names = await redis.admin.keys('*:writes:*');
    expect(names.length).toBeGreaterThan(0);
    for (const name of names) {
      expect(await redis.admin.pttl(name), name).toBeGreaterThan(0);
      expect(name).not.toContain(sb.keys.admin);
      const type = await redis.admin.type(name);
      const value = type === 'set' ? (await redis.admin.smembers(name)).join(' ') : ((await redis.admin.get(name)) ?? '');
      expect(value).not.toContain(sb.keys.admin.split('_').at(-1));
    }
  });
});
