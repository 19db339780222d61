import { afterAll, beforeAll, beforeEach } from 'vitest';
import type { Sandbox } from '../../src/sandbox/index.js';
import { type Relay, startRelay } from '../../scripts/harness/relay.js';

/** A sandbox with a relay before it, for one test file: started before its tests, closed after; each test starts with no override. */
export function sandboxBehindRelay(start: () => Promise<Sandbox>): { readonly sb: Sandbox; readonly relay: Relay } {
  const held = {} as { sb: Sandbox; relay: Relay };
  beforeAll(async () => {
    held.sb = await start();
    held.relay = await startRelay(held.sb.baseUrl);
  });
  afterAll(async () => {
    await held.relay?.close();
    await held.sb?.close();
  });
  beforeEach(() => {
    if (held.relay) held.relay.override = null;
  });
  return held;
}
