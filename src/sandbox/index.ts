import { createHash } from 'node:crypto';
import { createLogger } from '../log.js';
import { FaultPlan, parseFaults } from './faults.js';
import { HANDLERS } from './handlers/index.js';
import { RateLimits } from './limits.js';
import { type SandboxOptions, sandboxOptionsSchema } from './options.js';
import { Cursors } from './paging.js';
import { buildStore } from './seed/index.js';
import { SANDBOX_KEYS } from './seed/keys.js';
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
  faults: FaultPlan;
  keys: typeof SANDBOX_KEYS;
  close(): Promise<void>;
}

/** Start a sandbox: a faithful local Reply Inbox API v1 with seeded data (SANDBOX.md). */
export async function startSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  const o = sandboxOptionsSchema.parse(options);
  const log = createLogger('reply-inbox-sandbox', o.logLevel);
  const now = o.now ? new Date(o.now) : new Date();
  const store = buildStore({ seed: o.seed, now, leads: o.leads });
  const limits = new RateLimits(o.rateWindowMs, o.rateLimits);
  const faults = new FaultPlan(parseFaults(o.faults), o.seed);
  const cursors = new Cursors(createHash('sha256').update(`cursor-secret:${o.seed}`).digest('hex'));
  const srv = createSandboxServer({ store, handlers: HANDLERS, limits, faults, cursors, log });
  const addr = await srv.listen(o.port, o.host);
  const host = addr.family === 'IPv6' ? `[${addr.address}]` : addr.address;
  log.info({ port: addr.port, leads: o.leads, seed: o.seed }, 'sandbox listening');
  return {
    baseUrl: `http://${host}:${addr.port}`,
    port: addr.port,
    store,
    limits,
    faults,
    keys: SANDBOX_KEYS,
    close: () => srv.close(),
  };
}
