import { parseArgs } from 'node:util';
import { z } from 'zod';
import { LOG_LEVELS, type LogLevel } from '../log.js';
import { API_KEY_FORMAT, type Toolset, TOOL_ENDPOINTS, workspaceSchema } from '../spec/index.js';
import { SANDBOX_KEYS, type SandboxKeyName } from '../sandbox/index.js';

export const TOOLSETS = [...new Set(TOOL_ENDPOINTS.map((e) => e.toolset!))] as Toolset[];
const TOOL_NAMES = TOOL_ENDPOINTS.map((e) => e.name);

/** Each flag, its env twin and what it means: the README's table is written from this. */
export const FLAGS = {
  sandbox: { env: 'REPLY_INBOX_SANDBOX', type: 'boolean', help: 'Start the embedded sandbox API in-process and use it (no key needed).' },
  'sandbox-key': { env: 'REPLY_INBOX_SANDBOX_KEY', type: 'string', help: `Which sandbox key to act as: ${Object.keys(SANDBOX_KEYS).join(', ')} (default admin).` },
  'api-key': { env: 'REPLY_INBOX_API_KEY', type: 'string', help: 'Reply Inbox API key (rik_live_…). Prefer the env variable: flags show in process lists.' },
  'base-url': { env: 'REPLY_INBOX_BASE_URL', type: 'string', help: 'API root, e.g. https://api.example.com (required with --api-key).' },
  workspace: { env: 'REPLY_INBOX_WORKSPACE', type: 'string', help: 'Default workspace slug for tools (default: the only one the key reaches).' },
  'read-only': { env: 'REPLY_INBOX_READ_ONLY', type: 'boolean', help: 'Register no write tool. Wins over --toolsets and --tools.' },
  toolsets: { env: 'REPLY_INBOX_TOOLSETS', type: 'string', help: `Comma list of areas to serve: ${TOOLSETS.join(', ')} (default all).` },
  tools: { env: 'REPLY_INBOX_TOOLS', type: 'string', help: 'Comma list of single tools to serve besides --toolsets.' },
  'log-level': { env: 'REPLY_INBOX_LOG_LEVEL', type: 'string', help: `${LOG_LEVELS.join('|')} (default info; logs go to stderr).` },
  'scope-refresh-seconds': { env: 'REPLY_INBOX_SCOPE_REFRESH_SECONDS', type: 'string', help: 'Seconds between re-reads of GET /v1/me that follow changes of the key\'s scopes (default 300; 0 turns it off).' },
} as const;
export type FlagName = keyof typeof FLAGS;

const csv = (s: string | undefined) => (s ? s.split(',').map((x) => x.trim()).filter(Boolean) : undefined);
const truthy = (s: string | undefined) => s !== undefined && /^(1|true|yes|on)$/i.test(s);

const configSchema = z.strictObject({
  sandbox: z.boolean(),
  sandboxKey: z.enum(Object.keys(SANDBOX_KEYS) as [SandboxKeyName, ...SandboxKeyName[]]),
  apiKey: z.string().optional(),
  baseUrl: z.url({ protocol: /^https?$/ }).optional(),
  workspace: workspaceSchema.optional(),
  readOnly: z.boolean(),
  toolsets: z.array(z.enum(TOOLSETS as [Toolset, ...Toolset[]])).optional(),
  tools: z.array(z.enum(TOOL_NAMES as [string, ...string[]])).optional(),
  logLevel: z.enum(LOG_LEVELS as [LogLevel, ...LogLevel[]]),
  scopeRefreshSeconds: z.string().regex(/^\d+$/, 'must be a whole number of seconds').transform(Number).pipe(z.number().max(86_400)),
});
export type Config = z.infer<typeof configSchema>;

export class ConfigError extends Error {}

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
    apiKey: str('api-key'),
    baseUrl: str('base-url'),
    workspace: str('workspace'),
    readOnly: bool('read-only'),
    toolsets: csv(str('toolsets')),
    tools: csv(str('tools')),
    logLevel: str('log-level') ?? 'info',
    scopeRefreshSeconds: str('scope-refresh-seconds') ?? '300',
  };
  const parsed = configSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const field = String(issue.path[0]);
    const flag = Object.keys(FLAGS).find((f) => f.replace(/-([a-z])/g, (_m, c: string) => c.toUpperCase()) === field) ?? field;
    throw new ConfigError(`--${flag}: ${issue.message}`);
  }
  const c = parsed.data;
  if (!c.sandbox) {
    if (!c.apiKey) throw new ConfigError('No API key: set REPLY_INBOX_API_KEY (or --api-key), or run against the embedded sandbox with --sandbox.');
    const m = API_KEY_FORMAT.exec(c.apiKey);
    if (!m) throw new ConfigError('The API key is malformed: expected rik_live_<8-char handle>_<32-char secret>.');
    if (m[1] === 'test') throw new ConfigError('Test-environment keys (rik_test_…) are refused by the API; use a live key.');
    if (!c.baseUrl) throw new ConfigError('No API root: set REPLY_INBOX_BASE_URL (or --base-url).');
  } else if (c.apiKey) {
    throw new ConfigError('--sandbox uses a sandbox key (see --sandbox-key); do not also pass --api-key.');
  }
  return c;
}

export function usage(): string {
  const rows = Object.entries(FLAGS).map(([k, f]) => `  --${k.padEnd(14)} ${f.env.padEnd(26)} ${f.help}`);
  return ['reply-inbox-mcp: an MCP server (stdio) for the Reply Inbox API v1', '', 'Flags (env twin in the second column):', ...rows, '  -h, --help', ''].join('\n');
}
