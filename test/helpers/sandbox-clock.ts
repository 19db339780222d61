import type { Sandbox } from '../../src/sandbox/index.js';
import type { ManualClock } from './manual-clock.js';

/** Put a sandbox's time on `clock`: what requests are stamped with, its rate windows and its latency fault. */
export function putOnClock(sb: Sandbox, clock: ManualClock): Sandbox {
  sb.clock.now = clock.now;
  sb.clock.setTimeout = (fn, ms) => clock.setTimeout(fn, ms);
  sb.clock.clearTimeout = (t) => clock.clearTimeout(t);
  sb.limits.clock = clock.now;
  return sb;
}
