import type { JSONRPCMessage } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import { RESUME_WINDOW_MS, RecentEvents } from '../../src/mcp/transport/http/event-store.js';
import { type Session, Sessions } from '../../src/mcp/transport/http/sessions.js';

const answer = (id: number): JSONRPCMessage => ({ jsonrpc: '2.0', id, result: { content: [{ type: 'text', text: 'x'.repeat(1000) }] } });

/** What a resume from `after` sends again. */
async function replayed(events: RecentEvents, after: string): Promise<{ stream: string; sent: string[] }> {
  const sent: string[] = [];
  const stream = await events.replayEventsAfter(after, { send: async (id) => void sent.push(id) });
  return { stream, sent };
}

describe("A session's SSE events are kept for a resume, not for the session's life", () => {
  it('a resume within the window gets what followed; past it the events are gone, stored or not', async () => {
    let t = 1_000_000;
    const events = new RecentEvents(() => t);
    const first = await events.storeEvent('s1', answer(1));
    const second = await events.storeEvent('s1', answer(2));
    t += 1_000;
    const third = await events.storeEvent('s1', answer(3));
    expect(await replayed(events, first)).toEqual({ stream: 's1', sent: [second, third] });

    // The first two leave as the window passes them; the third, a second younger, stays a second longer.
    t += RESUME_WINDOW_MS - 500;
    events.trim();
    expect(events.size).toBe(1);
    expect(await replayed(events, first)).toEqual({ stream: '', sent: [] });
    expect(await replayed(events, third)).toEqual({ stream: 's1', sent: [] });
    t += 1_000;
    events.trim();
    expect(events.size).toBe(0);
  });

  it('storing an event drops those past the window, and no more than 32 are kept at once', async () => {
    let t = 0;
    const events = new RecentEvents(() => t);
    for (let i = 0; i < 40; i++) await events.storeEvent('s', answer(i));
    expect(events.size).toBe(32);
    t += RESUME_WINDOW_MS + 1;
    await events.storeEvent('s', answer(40));
    expect(events.size).toBe(1);
  });

  it("the session table's sweep trims every session's events, busy or idle, listening or not", async () => {
    let t = 0;
    const trimmed: string[] = [];
    const s = new Sessions(10, 60 * 60_000, () => t);
    const session = (id: string, busy: number, streams: number): Session =>
      ({
        id,
        owner: id,
        lastSeen: 0,
        busy,
        streams,
        returned: true,
        server: { subscriptionCount: 0 },
        transport: { close: async () => undefined },
        events: { trim: () => void trimmed.push(id) },
      }) as unknown as Session;
    for (const x of [session('idle', 0, 0), session('busy', 1, 0), session('listening', 0, 1)]) {
      expect(s.reserve(x.owner)).toBeNull();
      s.add(x);
    }
    t = RESUME_WINDOW_MS;
    s.sweep();
    expect(trimmed.sort()).toEqual(['busy', 'idle', 'listening']);
    expect(s.size).toBe(3);
    await s.closeAll();
  });
});
