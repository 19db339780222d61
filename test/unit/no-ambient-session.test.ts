import { Client, InMemoryTransport } from '@modelcontextprotocol/client';
import { afterEach, describe, expect, it, vi } from 'vitest';

/** Every use of async context tracking by the server's modules: on Node 20 it turns on promise hooks for the whole process. */
const tracked = vi.hoisted(() => [] as string[]);

vi.mock('node:async_hooks', async (original) => {
  const real = await original<typeof import('node:async_hooks')>();
  class Recorded<T> extends real.AsyncLocalStorage<T> {
    constructor() {
      super();
      tracked.push('new AsyncLocalStorage');
    }
    override run<R, A extends unknown[]>(store: T, fn: (...args: A) => R, ...args: A): R {
      tracked.push('AsyncLocalStorage.run');
      return super.run(store, fn, ...args);
    }
    override enterWith(store: T): void {
      tracked.push('AsyncLocalStorage.enterWith');
      super.enterWith(store);
    }
  }
  const createHook: typeof real.createHook = (callbacks) => {
    tracked.push('createHook');
    return real.createHook(callbacks);
  };
  const mocked = { ...real, AsyncLocalStorage: Recorded, createHook };
  return { ...mocked, default: mocked };
});

const { createLogger } = await import('../../src/log.js');
const { InboxServer } = await import('../../src/mcp/server.js');
// The transports' modules are loaded too: whatever they would make at load is seen.
await import('../../src/mcp/transport/http/serve.js');
await import('../../src/mcp/transport/stdio.js');

const opened: Client[] = [];
afterEach(async () => {
  for (const c of opened.splice(0)) await c.close();
});

async function connected() {
  const api = {
    call: async () => ({ data: { object: 'list', data: [], has_more: false, next_cursor: null } }),
    me: async () => ({ data: { scopes: ['workspaces:read', 'leads:read'], workspaces: [{ id: 'acme' }] } }),
  };
  const server = new InboxServer({ name: 't', version: '0', tools: [], api: api as never, selection: { readOnly: false }, log: createLogger('t', 'silent') });
  await server.refresh();
  const client = new Client({ name: 'c', version: '0' });
  opened.push(client);
  const [a, b] = InMemoryTransport.createLinkedPair();
  await server.mcp.connect(a);
  await client.connect(b);
  return client;
}

describe('The server finds the asking session without async context tracking', () => {
  it('answers resources, prompts and completions with no AsyncLocalStorage and no async hook', async () => {
    const client = await connected();
    expect((await client.listResourceTemplates()).resourceTemplates.length).toBeGreaterThan(0);
    expect((await client.listResources()).resources.length).toBeGreaterThan(0);
    expect(JSON.parse(((await client.readResource({ uri: 'inbox://acme/leads' })).contents[0] as { text: string }).text).workspace).toBe('acme');
    expect((await client.getPrompt({ name: 'triage_inbox', arguments: {} })).messages).toHaveLength(1);
    const complete = (ref: Parameters<Client['complete']>[0]['ref'], name: string) =>
      client.complete({ ref, argument: { name, value: '' } }).then((r) => r.completion.values);
    expect(await complete({ type: 'ref/resource', uri: 'inbox://{workspace}/leads/{lead}' }, 'workspace')).toEqual(['acme']);
    expect(await complete({ type: 'ref/prompt', name: 'triage_inbox' }, 'assignee')).toEqual(['none']);
    expect(tracked).toEqual([]);
  });
});
