import { Client, InMemoryTransport } from '@modelcontextprotocol/client';
import { assemble, newClient, newServer, stopWatch } from '../../src/cli/assemble.js';
import { readConfig } from '../../src/cli/config.js';
import { ReplyInboxClient } from '../../src/client/index.js';
import { createLogger } from '../../src/log.js';
import { type InboxServerOptions, InboxServer } from '../../src/mcp/server.js';
import type { Sandbox } from '../../src/sandbox/index.js';
import { ALL_TOOLS } from '../../tools/index.js';
import { afterAll, beforeAll } from 'vitest';
import { sandbox } from '../client/helpers.js';

/** An SDK client connected to `server` over the SDK's in-memory transport; one that can be asked (elicitation) when `prepare` sets its answers. */
async function connectInMemory(server: InboxServer, prepare?: (client: Client) => void): Promise<Client> {
  const [a, b] = InMemoryTransport.createLinkedPair();
  await server.mcp.connect(a);
  const client = new Client({ name: 'c', version: '0' }, prepare ? { capabilities: { elicitation: { form: {} } } } : {});
  prepare?.(client);
  await client.connect(b);
  return client;
}

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
  const client = await connectInMemory(server, prepare);
  return {
    client,
    server,
    close: async () => {
      await client.close();
      await server.close();
    },
  };
}

/** A server the binary would build, served in this process. */
export interface InProcessSession {
  client: Client;
  server: InboxServer;
  close(): Promise<void>;
}

/**
 * The server the binary builds from these flags and this environment (src/cli/assemble.ts: the
 * same configuration, API client, write records and tool list), served in this process to an
 * SDK client over the in-memory transport: a call goes through the whole tools/call path as it
 * does over stdio, with no build and no child process. `env` stands for the whole environment
 * (the test's own is not read). As the SDK checks structuredContent only against the output
 * schemas it has listed, the tools are listed once up front.
 */
export async function inProcessCli(args: string[], env: Record<string, string> = {}): Promise<InProcessSession> {
  const config = readConfig(args, env);
  const parts = await assemble(config, createLogger('reply-inbox-mcp', config.logLevel), null);
  let server: InboxServer | undefined;
  const api = newClient(parts, parts.apiKey!, (e) => server?.limiterEvent(e));
  server = newServer(parts, api);
  await server.refresh();
  const client = await connectInMemory(server);
  await client.listTools();
  const served = server;
  return {
    client,
    server: served,
    close: async () => {
      await client.close();
      await served.close();
      stopWatch(api);
      await api.close();
      await parts.store?.close();
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
