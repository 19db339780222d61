import type { Logger } from 'pino';
import { EXIT_GRACE_MS } from '../mcp/transport/in-flight.js';

/**
 * Once a drain begins, the process is gone `drainMs + EXIT_GRACE_MS` later at the latest: the
 * drain answers every call within that time, and if closing a session, a connection or Redis
 * then hangs, this ends the process (exit 1, said in the log) rather than let a supervisor wait.
 * Unreferenced: a drain that ends in time exits on its own, without it.
 */
export function exitBackstop(drainMs: number, log: Logger): void {
  setTimeout(() => {
    log.error({ drain_ms: drainMs, grace_ms: EXIT_GRACE_MS }, 'shutdown did not finish within the drain time and its grace; exiting now');
    process.exit(1);
  }, drainMs + EXIT_GRACE_MS).unref();
}
