import { Writable } from 'node:stream';
import type { Logger } from 'pino';
import { createLogger } from '../../src/log.js';
import { type ClientOptions, type LimiterEvent, ReplyInboxClient } from '../../src/client/index.js';
import { type Sandbox, type SandboxOptions, startSandbox } from '../../src/sandbox/index.js';
import { TEST_NOW } from '../../scripts/harness/sandbox.js';

/** The admin key's id inside the sandbox (its limits are kept per key id). */
export const ADMIN_KEY_ID = 'key_admin001';

export function sandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  return startSandbox({ port: 0, now: TEST_NOW, logLevel: 'silent', leads: 120, ...options });
}

export interface Watched {
  client: ReplyInboxClient;
  events: LimiterEvent[];
  /** 429 answers the client met, by code. */
  rejected: () => { rate_limited: number; too_many_concurrent: number };
}

export function client(sb: Sandbox, opts: Partial<ClientOptions> = {}): Watched {
  const events: LimiterEvent[] = [];
  const c = new ReplyInboxClient({
    apiKey: sb.keys.admin,
    baseUrl: sb.baseUrl,
    logLevel: 'silent',
    ...opts,
    onLimiterEvent: (e) => {
      events.push(e);
      opts.onLimiterEvent?.(e);
    },
  });
  return {
    client: c,
    events,
    rejected: () => ({
      rate_limited: events.filter((e) => e.type === 'rate_limited').length,
      too_many_concurrent: events.filter((e) => e.type === 'too_many_concurrent').length,
    }),
  };
}

/** Wait until just after a window boundary so a burst starts with a full window. */
export async function atWindowStart(windowMs: number): Promise<void> {
  await new Promise((r) => setTimeout(r, windowMs - (Date.now() % windowMs) + 15));
}

/** A pino logger at trace level whose output is kept in memory. */
export function capturedLogger(): { logger: Logger; text: () => string } {
  const chunks: string[] = [];
  const dest = new Writable({
    write(chunk, _enc, done) {
      chunks.push(String(chunk));
      done();
    },
  });
  return { logger: createLogger('client-test', 'trace', dest as never), text: () => chunks.join('') };
}

/** The distinct server windows a set of responses fell in (by x-ratelimit-reset). */
export function windowsOf(results: { headers: Record<string, string> }[]): number {
  return new Set(results.map((r) => r.headers['x-ratelimit-reset'])).size;
}
