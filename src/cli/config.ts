import { parseArgs } from 'node:util';
import { z } from 'zod';
import { LOG_LEVELS, type LogLevel } from '../log.js';
import { redactSecrets } from '../redact.js';
import { type Toolset, TOOL_ENDPOINTS } from '../api/endpoints.js';
import { workspaceSchema } from '../api/ids.js';
import { API_KEY_FORMAT } from '../api/keys.js';
import { SANDBOX_KEYS, type SandboxKeyName } from '../sandbox/seed/keys.js';
import { type Listen, isLoopback, parseListen } from '../mcp/transport/http/listen.js';
import { CONFIRM_MODES } from '../mcp/confirm/confirm.js';

export const TOOLSETS = [...new Set(TOOL_ENDPOINTS.map((e) => e.toolset!))] as Toolset[];
const TOOL_NAMES = TOOL_ENDPOINTS.map((e) => e.name);

/** Each flag, its env twin and what it means: the README's table is written from this. */
export const FLAGS = {
  sandbox: { env: 'REPLY_INBOX_SANDBOX', type: 'boolean', help: 'Start the embedded sandbox API in-process and use it (no key needed).' },
  'sandbox-key': {
    env: 'REPLY_INBOX_SANDBOX_KEY',
    type: 'string',
    help: `Which sandbox key to act as: ${Object.keys(SANDBOX_KEYS).join(', ')} (default admin).`,
  },
  'sandbox-reply-seconds': {
    env: 'REPLY_INBOX_SANDBOX_REPLY_SECONDS',
    type: 'string',
    help: 'With --sandbox: one seeded lead replies every N seconds, to watch the inbox move (default 0: never).',
  },
  'api-key': { env: 'REPLY_INBOX_API_KEY', type: 'string', help: 'Reply Inbox API key (rik_live_…). Prefer the env variable: flags show in process lists.' },
  'base-url': { env: 'REPLY_INBOX_BASE_URL', type: 'string', help: 'API root, e.g. https://api.example.com (required with --api-key).' },
  workspace: { env: 'REPLY_INBOX_WORKSPACE', type: 'string', help: 'Default workspace slug for tools (default: the only one the key reaches).' },
  'read-only': { env: 'REPLY_INBOX_READ_ONLY', type: 'boolean', help: 'Register no write tool. Wins over --toolsets and --tools.' },
  toolsets: { env: 'REPLY_INBOX_TOOLSETS', type: 'string', help: `Comma list of areas to serve: ${TOOLSETS.join(', ')} (default all).` },
  tools: { env: 'REPLY_INBOX_TOOLS', type: 'string', help: 'Comma list of single tools to serve besides --toolsets.' },
  'log-level': { env: 'REPLY_INBOX_LOG_LEVEL', type: 'string', help: `${LOG_LEVELS.join('|')} (default info; logs go to stderr).` },
  'scope-refresh-seconds': {
    env: 'REPLY_INBOX_SCOPE_REFRESH_SECONDS',
    type: 'string',
    help: "Seconds between re-reads of GET /v1/me that follow changes of the key's scopes (default 300; 0 turns it off).",
  },
  'watch-seconds': {
    env: 'REPLY_INBOX_WATCH_SECONDS',
    type: 'string',
    help: "Seconds between polls for new replies while a client subscribes to leads or conversations (default 30; 0 turns watching off). Polling keeps to 10% of the key's read bucket.",
  },
  confirm: {
    env: 'REPLY_INBOX_CONFIRM',
    type: 'string',
    help: 'destructive|writes|never: which writes ask the person first when the client supports elicitation (default destructive; writes asks for every write).',
  },
  http: { env: 'REPLY_INBOX_HTTP', type: 'string', help: 'Serve MCP over Streamable HTTP at /mcp on [host:]port (default host 127.0.0.1) instead of stdio.' },
  'http-token': {
    env: 'REPLY_INBOX_HTTP_TOKEN',
    type: 'string',
    help: 'With --http: a secret clients send as Authorization: Bearer; the server then acts with its own key (--api-key or --sandbox).',
  },
  'allowed-hosts': {
    env: 'REPLY_INBOX_ALLOWED_HOSTS',
    type: 'string',
    help: 'With --http: comma list of host names clients reach this server by (Host and Origin are checked); * accepts any. Default: loopback names.',
  },
  'max-sessions': {
    env: 'REPLY_INBOX_MAX_SESSIONS',
    type: 'string',
    help: 'With --http: MCP sessions held at once (default 100); a new one closes the least recently used idle session, or gets 503 with Retry-After when all are busy or just opened.',
  },
  'max-result-bytes': {
    env: 'REPLY_INBOX_MAX_RESULT_BYTES',
    type: 'string',
    help: 'Byte budget of one tool result or resource read, text and structuredContent alike (default 24576); longer lists are cut at an item, with the arguments that read the rest.',
  },
  'max-sessions-per-key': {
    env: 'REPLY_INBOX_MAX_SESSIONS_PER_KEY',
    type: 'string',
    help: "With --http (keys from requests): sessions one key may hold (default 10); a new one closes that key's oldest idle session, or gets 429 when all are busy or just opened.",
  },
  'idle-session-minutes': {
    env: 'REPLY_INBOX_IDLE_SESSION_MINUTES',
    type: 'string',
    help: 'With --http: a session with no request and no open stream for this long is closed (default 10); clients that come back start a new one. A full table closes the least recently used idle session first.',
  },
  'trust-proxy': {
    env: 'REPLY_INBOX_TRUST_PROXY',
    type: 'boolean',
    help: 'With --http behind one reverse proxy you run: the client address (for the failed-authentication limit) is the last X-Forwarded-For entry. Off by default: the header is ignored.',
  },
  'auth-failures-per-minute': {
    env: 'REPLY_INBOX_AUTH_FAILURES_PER_MINUTE',
    type: 'string',
    help: 'With --http: failed authentications one client address may make per minute before it gets 429 (default 20; 0 turns the limit off).',
  },
  'drain-seconds': {
    env: 'REPLY_INBOX_DRAIN_SECONDS',
    type: 'string',
    help: 'On SIGTERM/SIGINT (or stdin closing): seconds the calls in flight may take to be answered; then calls still queued answer "cancelled, not sent", calls still at the API are cut (a write answers outcome_unknown), and the process exits within 2 s more (default 30).',
  },
  redis: {
    env: 'REPLY_INBOX_REDIS_URL',
    type: 'string',
    help: "redis://… shared by every instance (several, comma-separated: a Redis Cluster's seed nodes): each key's rate buckets and concurrency live there (default: in-process).",
  },
} as const;
export type FlagName = keyof typeof FLAGS;

const csv = (s: string | undefined) =>
  s
    ? s
        .split(',')
        .map((x) => x.trim())
        .filter(Boolean)
    : undefined;
const truthy = (s: string | undefined) => s !== undefined && /^(1|true|yes|on)$/i.test(s);

/** A whole number of seconds up to `max`, as a flag or env variable gives it. */
const seconds = (max: number) => z.string().regex(/^\d+$/, 'must be a whole number of seconds').transform(Number).pipe(z.number().max(max));

const configSchema = z.strictObject({
  sandbox: z.boolean(),
  sandboxKey: z.enum(Object.keys(SANDBOX_KEYS) as [SandboxKeyName, ...SandboxKeyName[]]),
  sandboxReplySeconds: seconds(86_400),
  apiKey: z.string().optional(),
  baseUrl: z.url({ protocol: /^https?$/ }).optional(),
  workspace: workspaceSchema.optional(),
  readOnly: z.boolean(),
  toolsets: z.array(z.enum(TOOLSETS as [Toolset, ...Toolset[]])).optional(),
  tools: z.array(z.enum(TOOL_NAMES as [string, ...string[]])).optional(),
  logLevel: z.enum(LOG_LEVELS as [LogLevel, ...LogLevel[]]),
  scopeRefreshSeconds: seconds(86_400),
  watchSeconds: seconds(3_600),
  confirm: z.enum(CONFIRM_MODES),
  http: z
    .string()
    .transform((s, ctx): Listen => {
      const listen = parseListen(s);
      if (listen) return listen;
      ctx.addIssue({ code: 'custom', message: 'expected [host:]port, e.g. 8080 or 0.0.0.0:8080' });
      return z.NEVER;
    })
    .optional(),
  // Sent as `Authorization: Bearer <token>`: only RFC 6750's token characters survive that header.
  httpToken: z
    .string()
    .min(16, 'use a secret of at least 16 characters')
    .regex(
      /^[A-Za-z0-9\-._~+/]+=*$/,
      'use only letters, digits and - . _ ~ + / (no spaces or quotes): clients send it as Authorization: Bearer <token>, where nothing else can match',
    )
    .optional(),
  allowedHosts: z
    .array(z.string().regex(/^(\*|\[[0-9a-fA-F:.]+\]|[A-Za-z0-9.-]+)(:\d{1,5})?$/, 'expected host names, e.g. mcp.example.com,localhost'))
    .optional(),
  maxSessions: z.string().regex(/^\d+$/, 'must be a whole number').transform(Number).pipe(z.number().min(1).max(100_000)),
  maxResultBytes: z
    .string()
    .regex(/^\d+$/, 'must be a whole number of bytes')
    .transform(Number)
    .pipe(z.number().min(4_096, 'must be at least 4096').max(10_485_760, 'must be at most 10485760')),
  maxSessionsPerKey: z.string().regex(/^\d+$/, 'must be a whole number').transform(Number).pipe(z.number().min(1).max(100_000)),
  idleSessionMinutes: z.string().regex(/^\d+$/, 'must be a whole number of minutes').transform(Number).pipe(z.number().min(1).max(1_440)),
  trustProxy: z.boolean(),
  authFailuresPerMinute: z.string().regex(/^\d+$/, 'must be a whole number (0 turns the limit off)').transform(Number).pipe(z.number().max(1_000_000)),
  drainSeconds: z.string().regex(/^\d+$/, 'must be a whole number of seconds').transform(Number).pipe(z.number().max(3_600)),
  redis: z
    .string()
    .refine(
      (s) => s.split(',').every((u) => /^rediss?:\/\/\S+$/.test(u.trim()) && URL.canParse(u.trim())),
      'expected redis://host:port or rediss://…, or several comma-separated for a Redis Cluster',
    )
    .optional(),
});
export type Config = z.infer<typeof configSchema>;

/** A mistake in the flags; a key pasted in the wrong place shows as its public handle only. */
export class ConfigError extends Error {
  constructor(message: string) {
    super(redactSecrets(message));
  }
}

/** Flags first, then their env twins, then defaults; every mistake named before anything starts. */
export function readConfig(argv: string[], env: NodeJS.ProcessEnv): Config {
  let values: Record<string, string | boolean | undefined>;
  try {
    const options = Object.fromEntries(Object.entries(FLAGS).map(([k, f]) => [k, { type: f.type }])) as Record<string, { type: 'string' | 'boolean' }>;
    values = parseArgs({ args: argv, options, strict: true, allowPositionals: false }).values as Record<string, string | boolean | undefined>;
  } catch (e) {
    throw new ConfigError((e as Error).message);
  }
  const str = (k: FlagName) => (values[k] as string | undefined) ?? (env[FLAGS[k].env] || undefined);
  const bool = (k: FlagName) => (values[k] as boolean | undefined) ?? truthy(env[FLAGS[k].env]);
  const raw = {
    sandbox: bool('sandbox'),
    sandboxKey: str('sandbox-key') ?? 'admin',
    sandboxReplySeconds: str('sandbox-reply-seconds') ?? '0',
    apiKey: str('api-key'),
    baseUrl: str('base-url'),
    workspace: str('workspace'),
    readOnly: bool('read-only'),
    toolsets: csv(str('toolsets')),
    tools: csv(str('tools')),
    logLevel: str('log-level') ?? 'info',
    scopeRefreshSeconds: str('scope-refresh-seconds') ?? '300',
    watchSeconds: str('watch-seconds') ?? '30',
    confirm: str('confirm')?.trim().toLowerCase() ?? 'destructive',
    http: str('http'),
    httpToken: str('http-token'),
    allowedHosts: csv(str('allowed-hosts')),
    maxSessions: str('max-sessions') ?? '100',
    maxResultBytes: str('max-result-bytes') ?? '24576',
    maxSessionsPerKey: str('max-sessions-per-key') ?? '10',
    authFailuresPerMinute: str('auth-failures-per-minute') ?? '20',
    idleSessionMinutes: str('idle-session-minutes') ?? '10',
    trustProxy: bool('trust-proxy'),
    drainSeconds: str('drain-seconds') ?? '30',
    redis: str('redis'),
  };
  const parsed = configSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const field = String(issue.path[0]);
    const flag = Object.keys(FLAGS).find((f) => f.replace(/-([a-z])/g, (_m, c: string) => c.toUpperCase()) === field) ?? field;
    throw new ConfigError(`--${flag}: ${issue.message}`);
  }
  const c = parsed.data;
  checkHttp(c);
  // Over HTTP without --http-token each request brings its own key: the server holds none.
  const keyFromRequests = c.http !== undefined && c.httpToken === undefined;
  if (keyFromRequests && c.apiKey) {
    throw new ConfigError(
      'With --http each request brings its key (Authorization: Bearer). To serve with a configured key, protect the endpoint with --http-token.',
    );
  }
  if (keyFromRequests && !c.sandbox) {
    if (!c.baseUrl) throw new ConfigError('No API root: set REPLY_INBOX_BASE_URL (or --base-url).');
  } else if (!c.sandbox) {
    if (!c.apiKey) throw new ConfigError('No API key: set REPLY_INBOX_API_KEY (or --api-key), or run against the embedded sandbox with --sandbox.');
    const m = API_KEY_FORMAT.exec(c.apiKey);
    if (!m) throw new ConfigError('The API key is malformed: expected rik_live_<8-char handle>_<32-char secret>.');
    if (m[1] === 'test') throw new ConfigError('Test-environment keys (rik_test_…) are refused by the API; use a live key.');
    if (!c.baseUrl) throw new ConfigError('No API root: set REPLY_INBOX_BASE_URL (or --base-url).');
  } else if (c.apiKey) {
    throw new ConfigError('--sandbox uses a sandbox key (see --sandbox-key); do not also pass --api-key.');
  }
  if (!c.sandbox && c.sandboxReplySeconds > 0)
    throw new ConfigError("--sandbox-reply-seconds makes the embedded sandbox's leads reply: use it with --sandbox.");
  return c;
}

/** The HTTP flags make sense only together: a token or a host list without --http is a mistake, and so is an open bind without a host list. */
function checkHttp(c: Config): void {
  if (c.http === undefined) {
    if (c.httpToken !== undefined) throw new ConfigError('--http-token protects the HTTP endpoint: use it with --http.');
    if (c.allowedHosts !== undefined) throw new ConfigError('--allowed-hosts checks requests to the HTTP endpoint: use it with --http.');
    return;
  }
  if (!isLoopback(c.http.host) && c.allowedHosts === undefined) {
    throw new ConfigError(
      `--allowed-hosts: listening on ${c.http.host}, list the host names clients use to reach this server (or * when a proxy in front checks Host).`,
    );
  }
}

export function usage(): string {
  const rows = Object.entries(FLAGS).map(([k, f]) => `  --${k.padEnd(24)} ${f.env.padEnd(36)} ${f.help}`);
  return [
    'reply-inbox-mcp: an MCP server (stdio, or Streamable HTTP with --http) for the Reply Inbox API v1',
    '',
    'Flags (env twin in the second column):',
    ...rows,
    '  -h, --help',
    '  --version',
    '',
  ].join('\n');
}
