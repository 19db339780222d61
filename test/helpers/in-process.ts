import { Client, InMemoryTransport } from '@modelcontextprotocol/client';
import { ReplyInboxClient } from '../../src/client/index.js';
import { createLogger } from '../../src/log.js';
import { type InboxServerOptions, InboxServer } from '../../src/mcp/server.js';
import type { Sandbox } from '../../src/sandbox/index.js';
import { ALL_TOOLS } from '../../tools/index.js';
import { afterAll, beforeAll } from 'vitest';
import { sandbox } from '../client/helpers.js';

/** The server in this process, over an in-memory transport, against a sandbox with its admin key: for tests that move its clock or read its store. */
export async function inProcessServer(
  sb: Sandbox,
  opts: Partial<InboxServerOptions> = {},
  prepare?: (client: Client) => void,
): Promise<{ client: Client; server: InboxServer; close(): Promise<void> }> {
  const api = new ReplyInboxClient({ apiKey: sb.keys.admin, baseUrl: sb.baseUrl, logLevel: 'silent' });
  const server = new InboxServer({
    name: 't',
    version: '0',
    tools: ALL_TOOLS,
    api,
    selection: { readOnly: false },
    defaultWorkspace: 'acme',
    log: createLogger('t', 'silent'),
    ...opts,
  });
  await server.refresh();
  const [a, b] = InMemoryTransport.createLinkedPair();
  await server.mcp.connect(a);
  // A client that can be asked (elicitation) when a test prepares its answers.
  const client = new Client({ name: 'c', version: '0' }, prepare ? { capabilities: { elicitation: { form: {} } } } : {});
  prepare?.(client);
  await client.connect(b);
  return {
    client,
    server,
    close: async () => {
      await client.close();
      await server.close();
    },
  };
}

/**
 * The in-process server for a whole file or describe block: a sandbox with `leads` leads and
 * the server over it, started before the tests and closed after them.
 */
export function useInProcessServer(leads = 20): { readonly sb: Sandbox; readonly client: Client } {
  let sb: Sandbox | undefined;
  let started: Awaited<ReturnType<typeof inProcessServer>> | undefined;
  beforeAll(async () => {
    sb = await sandbox({ leads });
    started = await inProcessServer(sb);
  });
  afterAll(async () => {
    await started?.close();
    await sb?.close();
  });
  return {
    get sb() {
      return sb!;
    },
    get client() {
      return started!.client;
    },
  };
}
