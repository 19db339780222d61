import { afterAll, beforeAll } from 'vitest';
import type { Sandbox } from '../../src/sandbox/index.js';
import { type Gateway, startGateway } from '../../scripts/harness/gateway.js';

/** A sandbox with a gateway before it, for one test file: started before its tests, closed after. */
export function sandboxBehindGateway(start: () => Promise<Sandbox>): { readonly sb: Sandbox; readonly gw: Gateway } {
  const held = {} as { sb: Sandbox; gw: Gateway };
  beforeAll(async () => {
    held.sb = await start();
    held.gw = await startGateway(held.sb.baseUrl);
  });
  afterAll(async () => {
    await held.gw?.close();
    await held.sb?.close();
  });
  return held;
}
