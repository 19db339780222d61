import { Client, InMemoryTransport } from '@modelcontextprotocol/client';
import { afterEach, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/log.js';
import { InboxServer } from '../../src/mcp/server.js';
import { sessionCompleter } from '../../src/mcp/resources-prompts/session-access.js';

/** One session of a key that reaches these workspaces; the API is never called by a workspace completion. */
function session(workspaces: string[], scopes = ['workspaces:read']) {
  /** The API calls made with this session's key. */
  const calls: string[] = [];
  const api = {
    call: async (name: string, o: { path?: { workspace?: string } }) => {
      calls.push(`${name} ${o.path?.workspace ?? ''}`);
      return { data: { object: 'list', data: [], has_more: false, next_cursor: null } };
    },
    me: async () => ({ data: { scopes, workspaces: workspaces.map((id) => ({ id })) } }),
  };
  const server = new InboxServer({ name: 't', version: '0', tools: [], api: api as never, selection: { readOnly: false }, log: createLogger('t', 'silent') });
  const client = new Client({ name: 'c', version: '0' });
  return { server, client, calls };
}

const opened: ReturnType<typeof session>[] = [];
afterEach(async () => {
  for (const s of opened.splice(0)) await s.client.close();
});

async function connected(workspaces: string[], scopes?: string[]) {
  const s = session(workspaces, scopes);
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
  it("sessions share the prompts' argument schemas and the resource templates (built once per process), not one set each", () => {
    type Registries = {
      _registeredPrompts: Record<string, { argsSchema: unknown; callback: unknown }>;
      _registeredResourceTemplates: Record<string, { resourceTemplate: unknown; readCallback: unknown }>;
    };
    const registries = (s: ReturnType<typeof session>) => s.server.mcp as unknown as Registries;
    const [one, two] = [registries(session(['a'])), registries(session(['b']))];
    const prompts = Object.keys(one._registeredPrompts);
    expect(prompts).toEqual(['triage_inbox', 'draft_reply', 'pipeline_report']);
    for (const name of prompts) {
      expect(one._registeredPrompts[name]!.argsSchema, name).toBeDefined();
      expect(one._registeredPrompts[name]!.argsSchema, name).toBe(two._registeredPrompts[name]!.argsSchema);
      expect(one._registeredPrompts[name]!.callback, name).toBe(two._registeredPrompts[name]!.callback);
    }
    const templates = Object.keys(one._registeredResourceTemplates);
    expect(templates.length).toBeGreaterThanOrEqual(6);
    for (const name of templates) {
      expect(one._registeredResourceTemplates[name]!.resourceTemplate, name).toBe(two._registeredResourceTemplates[name]!.resourceTemplate);
      expect(one._registeredResourceTemplates[name]!.readCallback, name).toBe(two._registeredResourceTemplates[name]!.readCallback);
    }
    // Registered per session all the same: enabling or removing one session's entry leaves the other's.
    expect(one._registeredResourceTemplates[templates[0]!]).not.toBe(two._registeredResourceTemplates[templates[0]!]);
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

  it('each session reads resources and gets prompts through its own key, even when asked at once', async () => {
    const [one, two] = await Promise.all([connected(['acme']), connected(['globex'])]);
    const read = (s: typeof one) =>
      s.client
        .readResource({ uri: `inbox://${s === one ? 'acme' : 'globex'}/leads` })
        .then((r) => JSON.parse((r.contents[0] as { text: string }).text).workspace);
    const triage = (s: typeof one) =>
      s.client
        .getPrompt({ name: 'triage_inbox', arguments: {} })
        .then((r) => (r.messages[0]!.content as { text: string }).text.match(/workspace "([a-z-]+)"/)![1]);
    const listed = (s: typeof one) => s.client.listResources().then((r) => r.resources.map((x) => x.uri).filter((u) => u.endsWith('/playbook')));
    const asked = await Promise.all([one, two, one, two].map(async (s) => [await read(s), await triage(s), await listed(s)]));
    const mine = [
      ['acme', 'acme', ['inbox://acme/playbook']],
      ['globex', 'globex', ['inbox://globex/playbook']],
    ];
    expect(asked).toEqual([0, 1, 0, 1].map((i) => mine[i]));
    // Every read went through the key of the session that asked.
    expect(one.calls.filter((c) => c.startsWith('list_leads'))).toEqual(['list_leads acme', 'list_leads acme']);
    expect(two.calls.filter((c) => c.startsWith('list_leads'))).toEqual(['list_leads globex', 'list_leads globex']);
  });

  it("completions that call the API, asked by two sessions at once between each other's reads, go through each one's own key", async () => {
    const scopes = ['workspaces:read', 'leads:read', 'members:read'];
    const [one, two] = await Promise.all([connected(['acme'], scopes), connected(['globex'], scopes)]);
    const lead = (s: typeof one) =>
      s.client.complete({ ref: { type: 'ref/resource', uri: 'inbox://{workspace}/leads/{lead}' }, argument: { name: 'lead', value: 'ann' } });
    const assignee = (s: typeof one) =>
      s.client.complete({ ref: { type: 'ref/prompt', name: 'triage_inbox' }, argument: { name: 'assignee', value: '' }, context: { arguments: {} } });
    const read = (s: typeof one, ws: string) => s.client.readResource({ uri: `inbox://${ws}/members` });
    const asked = await Promise.all([lead(one), lead(two), assignee(two), assignee(one), read(one, 'acme'), read(two, 'globex'), lead(two), lead(one)]);
    expect(asked.map((r) => ('completion' in r ? (r.completion as { values: string[] }).values : 'read'))).toEqual([
      [],
      [],
      ['none'],
      ['none'],
      'read',
      'read',
      [],
      [],
    ]);
    const apiCalls = (s: typeof one) => [...s.calls].sort();
    expect(apiCalls(one)).toEqual(['list_leads acme', 'list_leads acme', 'list_members acme', 'list_members acme']);
    expect(apiCalls(two)).toEqual(['list_leads globex', 'list_leads globex', 'list_members globex', 'list_members globex']);
  });

  it('a shared completer outside any session completes nothing', async () => {
    const complete = sessionCompleter(() => () => ['never'], [] as string[]);
    expect(await complete('', undefined)).toEqual([]);
    expect(await complete('', { arguments: { workspace: 'acme' } })).toEqual([]);
  });
});
