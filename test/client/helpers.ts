import { Writable } from 'node:stream';
import type { Logger } from 'pino';
import { createLogger } from '../../src/log.js';
import { type ClientOptions, type LimiterEvent, ReplyInboxClient } from '../../src/client/index.js';
import { type Sandbox, type SandboxOptions, startSandbox } from '../../src/sandbox/index.js';
import { TEST_NOW } from '../../scripts/harness/sandbox.js';
import type { ManualClock } from '../helpers/manual-clock.js';
import { putOnClock } from '../helpers/sandbox-clock.js';
import { eventually } from '../helpers/turns.js';

/** The admin key's id inside the sandbox (its limits are kept per key id). */
export const ADMIN_KEY_ID = 'key_admin001';

export function sandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  return startSandbox({ port: 0, now: TEST_NOW, logLevel: 'silent', leads: 120, ...options });
}

/** The start of the seeded day: a whole number of any window the tests use, so a clock there is at a window's start. */
export const CLOCK_START = Date.parse(TEST_NOW);

/** A sandbox whose time is `clock`'s: what requests are stamped with, its rate windows and its latency fault. */
export async function sandboxOn(clock: ManualClock, options: SandboxOptions = {}): Promise<Sandbox> {
  return putOnClock(await sandbox(options), clock);
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

/** The client turns its window this long after the server's reset (its default margin, 50 ms, and some). */
const PAST_RESET_MS = 100;

/**
 * Turns the rate windows of a sandbox and a client that share a ManualClock (`sandboxOn` and
 * the client's `clock`) when the client's limiter says every queued call
 * waits for a refill, never before: each window is used to the end however slow the machine,
 * and a test judges what went in which window, not milliseconds.
 */
export class WindowTurner {
  private used = 0;

  constructor(
    private readonly w: Watched,
    private readonly clock: ManualClock,
    private readonly windowMs: number,
  ) {}

  /** The index of the window the clock is in. */
  get window(): number {
    return Math.floor(this.clock.now() / this.windowMs);
  }

  /** Move the clock past the next window's start and the client's refill margin. */
  next(): void {
    const now = this.clock.now();
    this.clock.advance((this.window + 1) * this.windowMs + PAST_RESET_MS - now);
  }

  private waits(): Extract<LimiterEvent, { type: 'waiting_for_refill' }>[] {
    return this.w.events.filter((e) => e.type === 'waiting_for_refill');
  }

  /** Wait until the limiter waits for a refill, then turn the window. */
  async atRefillWait(): Promise<void> {
    await this.until(() => false);
  }

  /** Await `work`, turning the window each time the limiter waits for a refill on the way. */
  async settle<T>(work: Promise<T>): Promise<T> {
    let settled = false;
    const outcome = work.then(
      (value) => ({ value }),
      (error: unknown) => ({ error }),
    );
    void outcome.then(() => {
      settled = true;
    });
    while (!settled) await this.until(() => settled);
    const o = await outcome;
    if ('error' in o) throw o.error;
    return o.value;
  }

  /**
   * Wait until done() or the limiter's next wait for a refill; turn the window on the latter. A 429
   * ends the wait with an error: a call retried after it may wait outside the limiter, so no wait would come.
   */
  private async until(done: () => boolean): Promise<void> {
    const met429 = () => Object.values(this.w.rejected()).some((n) => n > 0);
    await eventually(
      'the calls answered, or the limiter waiting for a refill',
      () => done() || this.waits().length > this.used || met429(),
      () => this.w.client.limiterState(),
    );
    if (met429()) throw new Error(`the client met 429s, which the limiter should have avoided: ${JSON.stringify(this.w.rejected())}`);
    const wait = this.waits()[this.used];
    if (!wait) return;
    this.used++;
    // The limiter counts a call as waiting once it is handed to bottleneck; turn once bottleneck
    // has queued them all, as a window's own length would have let it (a loaded machine takes a while).
    const state = () => this.w.client.limiterState();
    await eventually('bottleneck queued every waiting call', () => state().buckets.reduce((n, b) => n + b.queued, 0) >= wait.queued, state);
    this.next();
  }
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
