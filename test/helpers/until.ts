import { setTimeout as sleep } from 'node:timers/promises';

/** Poll until ok(); on a timeout, say what was seen instead. */
export async function until(what: string, ok: () => boolean, seen: () => unknown = () => '', ms = 15_000): Promise<void> {
  const end = Date.now() + ms;
  while (!ok()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}; seen: ${JSON.stringify(seen())}`);
    await sleep(25);
  }
}
