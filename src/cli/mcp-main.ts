#!/usr/bin/env node
import { ApiError } from '../client/errors.js';
import type { LimiterEvent } from '../client/limiter/types.js';
import { createLogger } from '../log.js';
import { registerSecret } from '../redact.js';
import type { HttpAuth } from '../mcp/transport/http/auth.js';
import { LOOPBACK_NAMES } from '../mcp/transport/http/listen.js';
import type { InboxServer } from '../mcp/server.js';
import { type Era, serveStdio } from '../mcp/transport/stdio.js';
import type { Sandbox } from '../sandbox/index.js';
import { VERSION } from '../version.js';
import { assemble, closeShared, newClient, newServer, type Parts, stopWatch, USER_AGENT, watchOf } from './assemble.js';
import { ConfigError, readConfig, usage } from './config.js';
import { exitBackstop } from './exit-backstop.js';

/** Until SIGTERM or SIGINT: serve /mcp, then drain the calls in flight and exit 0. */
async function runHttp(p: Parts): Promise<number> {
  const c = p.config;
  const auth: HttpAuth = c.httpToken !== undefined && p.apiKey !== undefined ? { kind: 'token', token: c.httpToken, apiKey: p.apiKey } : { kind: 'bearer' };
  if (auth.kind === 'token') {
    // The configured key serves every session: a key the API refuses is a start-up error, as over stdio.
    const probe = newClient(p, auth.apiKey, () => undefined);
    const refused = await probe.me().then(
      () => null,
      (e: unknown) => (e instanceof ApiError ? `${e.code}: ${e.message}` : (e as Error).message),
    );
    await probe.close();
    if (refused) {
      process.stderr.write(`reply-inbox-mcp: the API refused to say what this key may do (GET /v1/me): ${refused}\n`);
      return 1;
    }
  }
  // Keys from requests are checked by one shared probe before anything is built for them.
  const probe = auth.kind === 'bearer' ? new (await import('../client/key-probe.js')).KeyProbe(p.baseUrl, USER_AGENT) : undefined;
  // Loaded only in this mode: the HTTP transport (and the SDK's with it) costs start-up time over stdio.
  const { serveHttp } = await import('../mcp/transport/http/serve.js');
  const handle = await serveHttp({
    listen: c.http!,
    auth,
    allowedHosts: c.allowedHosts ?? LOOPBACK_NAMES,
    maxSessions: c.maxSessions,
    maxSessionsPerKey: c.maxSessionsPerKey,
    authFailuresPerMinute: c.authFailuresPerMinute,
    idleSessionMs: c.idleSessionMinutes * 60_000,
    trustProxy: c.trustProxy,
    drainTimeoutMs: c.drainSeconds * 1000,
    newClient: (apiKey, onEvent, me) => newClient(p, apiKey, onEvent, me),
    probe: probe && ((apiKey) => probe.me(apiKey)),
    newServer: (client) => newServer(p, client),
    watchOf: (client) => watchOf(p, client),
    health: () => {
      const down = p.store?.unavailable(0);
      return { redis: p.store ? p.store.status() : 'off', ...(down ? { unavailable: `rate limiter unavailable: ${down}` } : {}) };
    },
    log: p.log,
  });
  // Not stdio: stdout is free, and a supervisor or test reads where the endpoint landed.
  process.stdout.write(`${JSON.stringify({ url: handle.url, listening: handle.listening })}\n`);
  p.log.info(
    { url: handle.url, listening: handle.listening, auth: auth.kind, redis: p.store !== undefined, max_sessions: c.maxSessions },
    'serving MCP over Streamable HTTP',
  );
  await new Promise<void>((resolve) => {
    process.once('SIGTERM', () => resolve());
    process.once('SIGINT', () => resolve());
  });
  p.log.info({ sessions: handle.sessions() }, 'draining: finishing the calls in flight');
  exitBackstop(c.drainSeconds * 1000, p.log);
  await handle.drain();
  await probe?.close();
  return 0;
}

async function main(): Promise<number> {
  const argv = process.argv.slice(2);
  if (argv.includes('--version')) {
    // Not serving: stdout is free for the version, as for the help text.
    process.stdout.write(`${VERSION}\n`);
    return 0;
  }
  if (argv.includes('--help') || argv.includes('-h')) {
    // Not serving: stdout is free for the help text.
    process.stdout.write(usage());
    return 0;
  }
  let config: ReturnType<typeof readConfig>;
  try {
    config = readConfig(argv, process.env);
  } catch (e) {
    if (e instanceof ConfigError) {
      process.stderr.write(`reply-inbox-mcp: ${e.message}\nRun reply-inbox-mcp --help for every flag.\n`);
      return 2;
    }
    throw e;
  }
  // The server's own secrets are known to every redaction for the whole run: its key and its HTTP token.
  for (const secret of [config.apiKey, config.httpToken]) if (secret !== undefined && secret.length >= 8) registerSecret(secret);
  const log = createLogger('reply-inbox-mcp', config.logLevel);
  let sandbox: Sandbox | null = null;
  if (config.sandbox) {
    const { startSandbox } = await import('../sandbox/index.js');
    sandbox = await startSandbox({
      port: 0,
      replyEverySeconds: config.sandboxReplySeconds,
      logLevel: config.logLevel === 'debug' || config.logLevel === 'trace' ? config.logLevel : 'warn',
    });
    log.info({ base_url: sandbox.baseUrl, key: config.sandboxKey }, 'embedded sandbox started');
  }
  const parts = await assemble(config, log, sandbox);
  if (config.http) {
    try {
      return await runHttp(parts);
    } finally {
      await closeShared(parts);
      await sandbox?.close().catch(() => undefined);
    }
  }
  return runStdio(parts);
}

/** Until stdin ends or a signal: serve one MCP connection over stdio, in the era it opens with. */
async function runStdio(parts: Parts): Promise<number> {
  const { config, log, sandbox } = parts;
  // The server tells its MCP client when a rate bucket throttles: the server serving now.
  let server: InboxServer | undefined;
  const onLimiterEvent = (e: LimiterEvent) => server?.limiterEvent(e);
  const client = newClient(parts, parts.apiKey!, onLimiterEvent);
  const shutdown = async () => {
    stopWatch(client);
    await client.close().catch(() => undefined);
    await closeShared(parts);
    await sandbox?.close().catch(() => undefined);
  };
  // A key the API refuses is a start-up error: read what it may do before serving (the answer is cached).
  const first = newServer(parts, client);
  try {
    await first.refresh();
  } catch (e) {
    const why = e instanceof ApiError ? `${e.code}: ${e.message}` : (e as Error).message;
    process.stderr.write(`reply-inbox-mcp: the API refused to say what this key may do (GET /v1/me): ${why}\n`);
    await shutdown();
    return 1;
  }
  log.info(
    {
      tools: first.toolNames.length,
      hidden: first.hiddenTools.filter((h) => h.reason !== 'not_selected').length,
      workspace: first.defaultWorkspace ?? null,
    },
    'serving over stdio',
  );
  // One server per connection once its era is known; the first one built is used first.
  let unused: InboxServer | undefined = first;
  const factory = async (era: Era) => {
    const s = unused ?? newServer(parts, client);
    unused = undefined;
    await s.refresh();
    if (era === 'modern') {
      s.openModern();
      s.watchScopes();
    }
    server = s;
    return s;
  };
  await serveStdio(factory, {
    drainTimeoutMs: config.drainSeconds * 1000,
    cancelQueued: () => client.close(),
    onDrain: () => exitBackstop(config.drainSeconds * 1000, log),
  });
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
