import { describe, expect, it } from 'vitest';
import { keepAlive } from '../../src/mcp/pipeline/keep-alive.js';

describe('A call still running sends progress while it waits, if the client gave a progress token', () => {
  it('one notification per period, each higher than the last, and none after the call ends', async () => {
    const seen: number[] = [];
    const stop = keepAlive(async (n) => {
      seen.push(n);
    }, 20);
    await new Promise((r) => setTimeout(r, 110));
    stop();
    const at = seen.length;
    await new Promise((r) => setTimeout(r, 60));
    expect(at).toBeGreaterThanOrEqual(3);
    expect(seen).toEqual(seen.map((_, i) => i + 1));
    expect(seen.length).toBe(at);
  });
});
