import { setTimeout as sleep } from 'node:timers/promises';

/*
 * Waits on the real clock, for the process lane only (e2e, reliability, cluster): the fast lane
 * waits for events (turns.ts) and moves time with a ManualClock.
 */

/** Poll until ok(); on a timeout, say what was seen instead. */
export async function until(what: string, ok: () => boolean, seen: () => unknown = () => '', ms = 15_000): Promise<void> {
  const end = Date.now() + ms;
  while (!ok()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}; seen: ${JSON.stringify(seen())}`);
    await sleep(25);
  }
}

/** Wait until just after a window boundary of the real clock, so a burst starts with a full window. */
export async function atWindowStart(windowMs: number): Promise<void> {
  await sleep(windowMs - (Date.now() % windowMs) + 15);
}
