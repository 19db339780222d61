#!/usr/bin/env node
import { parseArgs } from 'node:util';
import { startSandbox } from '../sandbox/index.js';
import { sandboxOptionsSchema } from '../sandbox/options.js';
import { VERSION } from '../version.js';

const USAGE = `reply-inbox-sandbox: a local Reply Inbox API v1 with seeded data

Options:
  --host HOST            bind address (default 127.0.0.1)
  --port N               port, 0 picks a free one (default 4010)
  --seed N               same seed and --now give the same data (default 1)
  --now ISO              timestamp the seeded data is placed around (default: now)
  --leads N              leads in workspace acme (default 500)
  --rate-window-ms N     length of one rate window (default 60000)
  --rate-limits on|off   buckets and the concurrency cap (default on)
  --faults SPEC          e.g. upstream_error=0.2,reset=0.05,latency_ms=30
  --reply-every-seconds N  one seeded lead replies every N seconds, in turn (default 0: never)
  --log-level LEVEL      fatal|error|warn|info|debug|trace|silent (default warn)
  -h, --help             this text
  --version              the package version

When ready, prints one line on stdout: {"base_url":"http://127.0.0.1:PORT"}. Logs go to stderr.`;

function die(message: string): never {
  process.stderr.write(`reply-inbox-sandbox: ${message}\n\n${USAGE}\n`);
  process.exit(2);
}

function intFlag(name: string, raw: string | undefined): number | undefined {
  if (raw === undefined) return undefined;
  if (!/^\d+$/.test(raw)) die(`--${name} must be a whole number, got '${raw}'`);
  return Number(raw);
}

async function main() {
  let values: Record<string, string | boolean | undefined>;
  try {
    ({ values } = parseArgs({
      options: {
        host: { type: 'string' },
        port: { type: 'string' },
        seed: { type: 'string' },
        now: { type: 'string' },
        leads: { type: 'string' },
        'rate-window-ms': { type: 'string' },
        'rate-limits': { type: 'string' },
        faults: { type: 'string' },
        'reply-every-seconds': { type: 'string' },
        'log-level': { type: 'string' },
        help: { type: 'boolean', short: 'h' },
        version: { type: 'boolean' },
      },
      strict: true,
    }));
  } catch (e) {
    die((e as Error).message);
  }
  if (values.version) {
    process.stdout.write(`${VERSION}\n`);
    return;
  }
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  const rl = values['rate-limits'] as string | undefined;
  if (rl !== undefined && rl !== 'on' && rl !== 'off') die(`--rate-limits takes on or off, got '${rl}'`);
  const parsed = sandboxOptionsSchema.safeParse({
    host: values.host,
    port: intFlag('port', values.port as string | undefined),
    seed: intFlag('seed', values.seed as string | undefined),
    now: values.now,
    leads: intFlag('leads', values.leads as string | undefined),
    rateWindowMs: intFlag('rate-window-ms', values['rate-window-ms'] as string | undefined),
    rateLimits: rl === undefined ? undefined : rl === 'on',
    faults: values.faults,
    replyEverySeconds: intFlag('reply-every-seconds', values['reply-every-seconds'] as string | undefined),
    logLevel: values['log-level'],
  });
  if (!parsed.success) {
    const i = parsed.error.issues[0]!;
    die(`--${String(i.path[0] ?? '').replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}: ${i.message}`);
  }
  const sandbox = await startSandbox(parsed.data);
  process.stdout.write(`${JSON.stringify({ base_url: sandbox.baseUrl })}\n`);
  const stop = () => {
    sandbox.close().then(() => process.exit(0));
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

main().catch((e) => {
  process.stderr.write(`reply-inbox-sandbox: ${(e as Error).message}\n`);
  process.exit(1);
});
