#!/usr/bin/env node
import { ALL_TOOLS } from '../../tools/index.js';
import { ApiError, type LimiterEvent, ReplyInboxClient } from '../client/index.js';
import { createLogger } from '../log.js';
import { InboxServer } from '../mcp/server.js';
import { serveStdio } from '../mcp/stdio.js';
import { type Sandbox, SANDBOX_KEYS, startSandbox } from '../sandbox/index.js';
import { VERSION } from '../version.js';
import { ConfigError, readConfig, usage } from './config.js';

async function main(): Promise<number> {
  const argv = process.argv.slice(2);
  if (argv.includes('--help') || argv.includes('-h')) {
    // Not serving: stdout is free for the help text.
    process.stdout.write(usage());
    return 0;
  }
  let config;
  try {
    config = readConfig(argv, process.env);
  } catch (e) {
    if (e instanceof ConfigError) {
      process.stderr.write(`reply-inbox-mcp: ${e.message}\nRun reply-inbox-mcp --help for every flag.\n`);
      return 2;
    }
    throw e;
  }
  const log = createLogger('reply-inbox-mcp', config.logLevel);
  let sandbox: Sandbox | null = null;
  if (config.sandbox) {
    sandbox = await startSandbox({ port: 0, logLevel: config.logLevel === 'debug' || config.logLevel === 'trace' ? config.logLevel : 'warn' });
    log.info({ base_url: sandbox.baseUrl, key: config.sandboxKey }, 'embedded sandbox started');
  }
  const apiKey = sandbox ? SANDBOX_KEYS[config.sandboxKey] : config.apiKey!;
  const baseUrl = sandbox ? sandbox.baseUrl : config.baseUrl!;
  // The server tells its MCP client when a rate bucket throttles; it is made just below.
  let server: InboxServer | undefined;
  const onLimiterEvent = (e: LimiterEvent) => server?.limiterEvent(e);
  const client = new ReplyInboxClient({ apiKey, baseUrl, logger: log.child({ part: 'client' }), userAgent: `reply-inbox-mcp/${VERSION}`, onLimiterEvent });
  server = new InboxServer({
    name: 'reply-inbox-mcp',
    version: VERSION,
    tools: ALL_TOOLS,
    api: client,
    selection: { readOnly: config.readOnly, toolsets: config.toolsets, tools: config.tools },
    defaultWorkspace: config.workspace,
    log,
    scopeRefreshSeconds: config.scopeRefreshSeconds,
  });
  const shutdown = async () => {
    await client.close().catch(() => undefined);
    await sandbox?.close().catch(() => undefined);
  };
  try {
    await server.refresh();
  } catch (e) {
    const why = e instanceof ApiError ? `${e.code}: ${e.message}` : (e as Error).message;
    process.stderr.write(`reply-inbox-mcp: the API refused to say what this key may do (GET /v1/me): ${why}\n`);
    await shutdown();
    return 1;
  }
  log.info({ tools: server.toolNames.length, hidden: server.hiddenTools.filter((h) => h.reason !== 'not_selected').length, workspace: server.defaultWorkspace ?? null }, 'serving over stdio');
  process.once('SIGTERM', () => void server.mcp.close());
  process.once('SIGINT', () => void server.mcp.close());
  await serveStdio(server);
  await shutdown();
  return 0;
}

main().then(
  (code) => process.exit(code),
  (e: unknown) => {
    process.stderr.write(`reply-inbox-mcp: ${(e as Error).message}\n`);
    process.exit(1);
  },
);
