import { describe, expect, it } from 'vitest';
import { ServerWindow } from '../../src/client/limiter/server-window.js';
import { ManualClock } from '../helpers/manual-clock.js';

/** The limiter's window runs on the clock it is given: it turns when that clock says, not the wall's. */
describe("the limiter's server window on an injected clock", () => {
  it('turns at x-ratelimit-reset plus the margin of its clock, once, and names the window that ended', () => {
    // A clock decades ahead of the wall: a timer on the wall's clock would wait that long.
    const clock = new ManualClock(Date.parse('2090-01-01T00:00:00Z'));
    const turns: (number | null)[] = [];
    const w = new ServerWindow({ marginMs: 50, fallbackMs: 60_000, onTurn: (ended) => turns.push(ended), clock });
    const end = clock.now() + 2_000;
    expect(w.place(end)).toBe('current');
    expect(w.turnsAt).toBe(end + 50);
    clock.advance(2_049);
    expect(turns).toEqual([]);
    clock.advance(1);
    expect(turns).toEqual([end]);
    // A response of the window that ended is stale now.
    expect(w.place(end)).toBe('stale');
    clock.advance(120_000);
    expect(turns).toEqual([end]);
    w.close();
  });

  it('with no reset header, ensureTimer turns after the fallback window of its clock; close() stops it', () => {
    const clock = new ManualClock(0);
    const turns: (number | null)[] = [];
    const w = new ServerWindow({ marginMs: 50, fallbackMs: 60_000, onTurn: (ended) => turns.push(ended), clock });
    w.ensureTimer();
    expect(w.turnsAt).toBe(60_000);
    clock.advance(60_000);
    expect(turns).toEqual([null]);
    w.ensureTimer();
    w.close();
    clock.advance(120_000);
    expect(turns).toEqual([null]);
    expect(clock.pending).toBe(0);
  });
});
