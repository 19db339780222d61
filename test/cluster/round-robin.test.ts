import type { CallToolResult, Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/index.js';
import { type HttpBinary, connectHttp, raw, startHttpBinary } from '../../scripts/harness/http.js';
import { type TestRedis, startRedis } from '../../scripts/harness/redis.js';
import { type Passed, type Relay, type RoundRobin, startRelay, startRoundRobin } from '../../scripts/harness/relay.js';
import { sandbox } from '../client/helpers.js';

/**
 * Issue 29, items 3 and 7: a 2026-07-28 client holds no session, so two instances with
 * --redis behind a balancer that sends each request to the next instance in turn (no
 * affinity) serve it as one: its calls, its duplicate guard, a confirmation whose answer
 * comes back to the other instance, and a listen stream. The API is the sandbox behind a
 * counting relay, so the writes that reach it are counted.
 */

let redis: TestRedis;
let sb: Sandbox;
let api: Relay;
let instances: HttpBinary[];
let lb: RoundRobin;
let client: Client;
/** What the client's elicitation handler was asked, in order. */
const questions: string[] = [];

beforeAll(async () => {
  redis = await startRedis();
  sb = await sandbox({ leads: 20 });
  api = await startRelay(sb.baseUrl);
  const args = ['--base-url', api.url, '--redis', redis.url, '--workspace', 'acme', '--confirm', 'destructive', '--watch-seconds', '1'];
  instances = await Promise.all([0, 1].map(() => startHttpBinary(args)));
  lb = await startRoundRobin(instances.map((i) => i.url));
  client = await connectHttp(`${lb.url}/mcp`, `Bearer ${sb.keys.admin}`, 'modern', { elicitation: {} });
  client.setRequestHandler('elicitation/create', async (req) => {
    questions.push(req.params.message);
    return { action: 'accept', content: {} };
  });
});
afterAll(async () => {
  await client?.close().catch(() => undefined);
  await lb?.close();
  await Promise.all((instances ?? []).map((i) => i.stop()));
  await api?.close();
  await sb?.close();
  await redis?.stop();
});

const call = (name: string, args: Record<string, unknown>) => client.callTool({ name, arguments: args }) as Promise<CallToolResult>;
const leadAt = (i: number) => sb.store.leads.inGroup('acme')[i]!.id;
/** The tools/call requests for `tool` the balancer passed on since `from`, in order. */
const callsOf = (tool: string, from: number): Passed[] => lb.passed.slice(from).filter((p) => p.mcpMethod === 'tools/call' && p.mcpName === tool);
const writesSince = (from: number) => api.requests.slice(from).filter((q) => !q.startsWith('GET '));

// Each 2026-07-28 request builds its server and each instance checks the key once: on a loaded
// 2-core machine running other suites beside this one, a few calls can take longer than 30 s.
describe('two instances with --redis behind a round-robin balancer with no affinity, a 2026-07-28 client', { timeout: 120_000 }, () => {
  it('speaks 2026-07-28 and holds no session: every request carries its own envelope', () => {
    expect(client.getProtocolEra()).toBe('modern');
    expect(client.getNegotiatedProtocolVersion()).toBe('2026-07-28');
  });

  it('has its tool calls answered by both instances', async () => {
    const from = lb.passed.length;
    for (let i = 0; i < 4; i++) {
      const r = await call('get_lead', { lead_id: leadAt(i) });
      expect(r.isError, JSON.stringify(r.content)).toBeFalsy();
      expect((r.structuredContent as { id: string }).id).toBe(leadAt(i));
    }
    const served = callsOf('get_lead', from);
    expect(served).toHaveLength(4);
    for (const p of served) expect(p.status).toBe(200);
    expect(new Set(served.map((p) => p.target))).toEqual(new Set([0, 1]));
  });

  it('an identical create_task that lands on the other instance is refused by the key-level duplicate guard', async () => {
    const marker = `round-robin-${Date.now()}`;
    const args = { lead_id: leadAt(1), notes: marker, due_date: '2026-11-24' };
    const from = lb.passed.length;
    const first = await call('create_task', args);
    const second = await call('create_task', args);
    const creates = callsOf('create_task', from);
    expect(creates).toHaveLength(2);
    expect(creates[0]!.target).not.toBe(creates[1]!.target);
    expect(first.isError, JSON.stringify(first.content)).toBeFalsy();
    expect(second.structuredContent).toMatchObject({ created: false, duplicate_of: (first.structuredContent as { id: string }).id });
    expect([...sb.store.tasks.all()].filter((t) => t.notes === marker)).toHaveLength(1);
  });

  it('a confirmation asked on one instance and answered on the other is accepted and written once', async () => {
    const lead = sb.store.leads.inGroup('acme').find((l) => l.state === 'active' && l.status !== 'unsubscribed')!.id;
    const from = lb.passed.length;
    const fromApi = api.requests.length;
    const asked = questions.length;
    const r = await call('set_status', { lead_id: lead, status: 'unsubscribed' });
    expect(r.isError, JSON.stringify(r.content)).toBeFalsy();
    expect((r.structuredContent as { id: string }).id).toBe(lead);
    expect(questions.slice(asked)).toHaveLength(1);
    expect(questions[asked]).toContain(`Lead ${lead}`);
    // The question's round and the answer's round, each on its own instance.
    const rounds = callsOf('set_status', from);
    expect(rounds).toHaveLength(2);
    expect(rounds[0]!.target).not.toBe(rounds[1]!.target);
    expect(writesSince(fromApi)).toEqual([`POST /v1/workspaces/acme/leads/${lead}/status`]);
    expect(sb.store.leads.get(lead)!.status).toBe('unsubscribed');

    // The answering round sent again, as it was, to the instance that did not take it: refused, nothing written.
    const answered = rounds[1]!;
    const other = instances[1 - answered.target]!;
    const again = await raw(other.url, { headers: answered.headers, body: answered.body });
    expect(again.status).toBe(200);
    expect(again.body).toContain('this answer was given to an earlier call');
    expect(writesSince(fromApi)).toEqual([`POST /v1/workspaces/acme/leads/${lead}/status`]);
  });

  it('a listen stream opened through the balancer hears a seeded lead reply', async () => {
    const heard: string[] = [];
    client.setNotificationHandler('notifications/resources/updated', (n) => void heard.push(n.params.uri));
    const from = lb.passed.length;
    const listening = await client.listen({ resourceSubscriptions: ['inbox://acme/leads'] });
    expect(listening.honoredFilter.resourceSubscriptions).toEqual(['inbox://acme/leads']);
    expect(lb.passed.slice(from).filter((p) => p.mcpMethod === 'subscriptions/listen')).toHaveLength(1);
    // The watch polls every second; a lead replies each second until the stream hears it.
    const deadline = Date.now() + 20_000;
    for (let i = 0; heard.length === 0 && Date.now() < deadline; i++) {
      sb.control.simulateInboundReply(leadAt(i % 10));
      await new Promise((r) => setTimeout(r, 1000));
    }
    expect(heard).toContain('inbox://acme/leads');
    await listening.close();
    expect(await listening.closed).toBe('local');
  });

  it('a listen stream ends with its empty result when its instance drains, and listening again is served by the other', async () => {
    const from = lb.passed.length;
    const listening = await client.listen({ resourceSubscriptions: ['inbox://acme/leads'] });
    const [opened] = lb.passed.slice(from).filter((p) => p.mcpMethod === 'subscriptions/listen');
    const draining = instances[opened!.target]!;
    const exited = draining.stop();
    expect(await listening.closed).toBe('graceful');
    expect(await exited).toBe(0);
    // The balancer's health check takes the stopped instance out; the client listens again.
    lb.drop(opened!.target);
    const again = await client.listen({ resourceSubscriptions: ['inbox://acme/leads'] });
    const reopened = lb.passed.slice(from).filter((p) => p.mcpMethod === 'subscriptions/listen');
    expect(reopened).toHaveLength(2);
    expect(reopened[1]!.target).toBe(1 - opened!.target);
    expect(again.honoredFilter.resourceSubscriptions).toEqual(['inbox://acme/leads']);
    await again.close();
  });
});
