import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { afterEach, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/log.js';
import { InboxServer } from '../../src/mcp/server.js';
import { sessionCompleter } from '../../src/mcp/context/session-access.js';

/** One session of a key that reaches these workspaces; the API is never called by a workspace completion. */
function session(workspaces: string[]) {
  const api = {
    call: async () => ({ data: { data: [] } }),
    me: async () => ({ data: { scopes: [], workspaces: workspaces.map((id) => ({ id })) } }),
  };
  const server = new InboxServer({ name: 't', version: '0', tools: [], api: api as never, selection: { readOnly: false }, log: createLogger('t', 'silent') });
  const client = new Client({ name: 'c', version: '0' });
  return { server, client };
}

const opened: ReturnType<typeof session>[] = [];
afterEach(async () => {
  for (const s of opened.splice(0)) await s.client.close();
});

async function connected(workspaces: string[]) {
  const s = session(workspaces);
  opened.push(s);
  await s.server.refresh();
  const [a, b] = InMemoryTransport.createLinkedPair();
  await s.server.mcp.connect(a);
  await s.client.connect(b);
  return s;
}

const completeWs = (c: Client, ref: { type: 'ref/prompt'; name: string } | { type: 'ref/resource'; uri: string }) =>
  c.complete({ ref, argument: { name: 'workspace', value: '' } }).then((r) => r.completion.values);

describe('What every session shares, and what stays its own', () => {
  it("sessions share the prompts' argument schemas (built once per process), not one set each", () => {
    const prompts = (s: ReturnType<typeof session>) =>
      (s.server.mcp as unknown as { _registeredPrompts: Record<string, { argsSchema: { shape: Record<string, unknown> } }> })._registeredPrompts;
    const [one, two] = [session(['a']), session(['b'])];
    for (const name of ['triage_inbox', 'draft_reply', 'pipeline_report']) {
      const [x, y] = [prompts(one)[name]!.argsSchema.shape, prompts(two)[name]!.argsSchema.shape];
      expect(Object.keys(x).length).toBeGreaterThan(0);
      for (const arg of Object.keys(x)) expect(x[arg], `${name}.${arg}`).toBe(y[arg]);
    }
  });

  it('sessions share one checker of elicitation answers, not an Ajv instance each', () => {
    const validator = (s: ReturnType<typeof session>) => (s.server.mcp.server as unknown as { _jsonSchemaValidator: unknown })._jsonSchemaValidator;
    const [one, two] = [session(['a']), session(['b'])];
    expect(validator(one)).toBeDefined();
    expect(validator(one)).toBe(validator(two));
  });

  it("each session completes its own key's workspaces, for prompts and resource templates, even when asked at once", async () => {
    const [one, two] = await Promise.all([connected(['acme', 'acme-eu']), connected(['globex'])]);
    const asked = await Promise.all(
      [one, two, one, two].flatMap((s) => [
        completeWs(s.client, { type: 'ref/prompt', name: 'triage_inbox' }),
        completeWs(s.client, { type: 'ref/resource', uri: 'inbox://{workspace}/playbook' }),
      ]),
    );
    const mine = [['acme', 'acme-eu'], ['globex']];
    expect(asked).toEqual([0, 0, 1, 1, 0, 0, 1, 1].map((i) => mine[i]));
  });

  it('a shared completer outside any session completes nothing', async () => {
    const complete = sessionCompleter(() => () => ['never'], [] as string[]);
    expect(await complete()).toEqual([]);
  });
});
