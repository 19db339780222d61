import { createHash } from 'node:crypto';
import v8 from 'node:v8';
import type { Logger } from 'pino';
import { systemClock } from '../clock.js';
import { createLogger } from '../log.js';
import { RATE_LIMITS } from '../api/enums.js';
import * as control from './control.js';
import { FaultPlan, parseFaults } from './faults.js';
import { HANDLERS } from './handlers/index.js';
import { RateLimits } from './limits.js';
import { type SandboxOptions, sandboxOptionsSchema } from './options.js';
import { Cursors } from './paging.js';
import { buildStore } from './seed/index.js';
import { SANDBOX_KEYS } from './seed/keys.js';
import type { SandboxClock } from './exchange.js';
import { createSandboxServer } from './server.js';
import type { Store } from './store/store.js';

export { SANDBOX_KEYS, type SandboxKeyName } from './seed/keys.js';
export type { SandboxOptions } from './options.js';

export interface Sandbox {
  baseUrl: string;
  port: number;
  /** The in-memory data, for tests that need to look behind the API (counting tasks, …). */
  store: Store;
  limits: RateLimits;
  /** The time requests are handled at and the latency fault waits on: Date.now and Node's timers unless a test replaces them. */
  clock: SandboxClock;
  faults: FaultPlan;
  keys: typeof SANDBOX_KEYS;
  /** Changes no v1 endpoint can make (a key owner's role, a new inbound reply), bound to this store. */
  control: BoundControl;
  close(): Promise<void>;
}

const LARGE_SEED = 20_000;

type Control = typeof control;
/** The control functions with the store already applied. */
export type BoundControl = {
  [K in keyof Control]: Control[K] extends (store: Store, ...rest: infer A) => infer R ? (...args: A) => R : never;
};
function bindControl(store: Store, clock: SandboxClock): BoundControl {
  const out: Record<string, unknown> = {};
  for (const [name, fn] of Object.entries(control)) out[name] = (...args: unknown[]) => (fn as (...a: unknown[]) => unknown)(store, ...args);
  const bound = out as BoundControl;
  // A reply without its own time arrives at the sandbox's time, as requests are handled.
  bound.simulateInboundReply = (lead, at, paragraphs, now = () => clock.now()) => control.simulateInboundReply(store, lead, at, paragraphs, now);
  return bound;
}

/**
 * --reply-every-seconds: seeded leads reply one at a time, in a fixed order (newest conversation
 * first, every workspace), so a watching client sees the inbox move as it would in use.
 */
function replyInTurn(store: Store, control: BoundControl, everyMs: number, log: Logger): NodeJS.Timeout {
  const order = [...store.leads.all()].sort((a, b) => (b.last_message_at ?? '').localeCompare(a.last_message_at ?? '')).map((l) => l.id);
  let next = 0;
  const timer = setInterval(() => {
    const lead = order[next++ % order.length]!;
    const reply = control.simulateInboundReply(lead);
    log.info({ lead, reply: reply.id }, 'a seeded lead replied');
  }, everyMs);
  timer.unref();
  return timer;
}

/** Start a sandbox: a faithful local Reply Inbox API v1 with seeded data (docs/sandbox.md). */
export async function startSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  const o = sandboxOptionsSchema.parse(options);
  // A large seed makes hundreds of thousands of long-lived records; a larger young
  // generation stops V8 copying them from scavenge to scavenge (100k leads: 5.1 s → 2.2 s).
  if (o.leads >= LARGE_SEED) v8.setFlagsFromString('--max-semi-space-size=32');
  const log = createLogger('reply-inbox-sandbox', o.logLevel);
  const now = o.now ? new Date(o.now) : new Date();
  const store = buildStore({ seed: o.seed, now, leads: o.leads });
  const { max_concurrent, ...buckets } = o.bucketLimits;
  const limits = new RateLimits(
    o.rateWindowMs,
    o.rateLimits,
    { read: RATE_LIMITS.read, write: RATE_LIMITS.write, upstream: RATE_LIMITS.upstream, thread: RATE_LIMITS.thread, ...buckets },
    max_concurrent ?? RATE_LIMITS.max_concurrent,
  );
  const faults = new FaultPlan(parseFaults(o.faults), o.seed);
  const cursors = new Cursors(createHash('sha256').update(`cursor-secret:${o.seed}`).digest('hex'));
  const clock: SandboxClock = { now: () => Date.now(), setTimeout: systemClock.setTimeout, clearTimeout: systemClock.clearTimeout };
  const srv = createSandboxServer({ store, handlers: HANDLERS, limits, faults, cursors, log, clock });
  const addr = await srv.listen(o.port, o.host);
  const bound = bindControl(store, clock);
  const replies = o.replyEverySeconds > 0 ? replyInTurn(store, bound, o.replyEverySeconds * 1000, log) : null;
  const host = addr.family === 'IPv6' ? `[${addr.address}]` : addr.address;
  log.info({ port: addr.port, leads: o.leads, seed: o.seed }, 'sandbox listening');
  return {
    baseUrl: `http://${host}:${addr.port}`,
    port: addr.port,
    store,
    limits,
    clock,
    faults,
    keys: SANDBOX_KEYS,
    control: bound,
    close: () => {
      if (replies) clearInterval(replies);
      return srv.close();
    },
  };
}
