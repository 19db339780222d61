import type { Clock, Timer } from '../../src/clock.js';
import { turn } from './turns.js';

/** How many steps `settle` takes at most: work that needs more is waiting for something else. */
const MAX_STEPS = 10_000;

interface Pending {
  at: number;
  fn: () => void;
  every?: number;
}

/**
 * A clock that moves only when the test says (`advance`), firing each timer that falls due in
 * the order of its time. Given to the sandbox (`sb.limits.clock = clock.now`) and to a client
 * (`clock`), their rate windows turn together, when the test chooses, however loaded the machine.
 */
export class ManualClock implements Clock {
  private t: number;
  private seq = 0;
  private readonly timers = new Map<number, Pending>();

  constructor(start = Date.now()) {
    this.t = start;
  }

  readonly now = (): number => this.t;

  setTimeout(fn: () => void, ms: number): Timer {
    return this.add({ at: this.t + Math.max(0, ms), fn });
  }

  setInterval(fn: () => void, ms: number): Timer {
    return this.add({ at: this.t + Math.max(1, ms), fn, every: Math.max(1, ms) });
  }

  clearTimeout(timer: Timer | undefined): void {
    if (timer) this.timers.delete((timer as unknown as { id: number }).id);
  }

  clearInterval(timer: Timer | undefined): void {
    this.clearTimeout(timer);
  }

  /** Timers waiting to fire. */
  get pending(): number {
    return this.timers.size;
  }

  /**
   * Move time on by `ms` without firing anything: the timers due meanwhile fire late, at the
   * next `advance`, as on a machine too busy to run them on time.
   */
  skip(ms: number): void {
    this.t += ms;
  }

  /** Move time on by `ms`, firing every timer due by then (one overdue after a skip at once), earliest first. */
  advance(ms: number): void {
    const to = this.t + ms;
    for (;;) {
      const next = [...this.timers.entries()].filter(([, p]) => p.at <= to).sort((a, b) => a[1].at - b[1].at || a[0] - b[0])[0];
      if (!next) break;
      const [id, p] = next;
      this.t = Math.max(this.t, p.at);
      if (p.every) p.at += p.every;
      else this.timers.delete(id);
      p.fn();
    }
    this.t = to;
  }

  /**
   * Await `work`, moving time on by `stepMs` each time the event loop has turned `idleTurns`
   * times without it settling: for work whose waits on this clock (retry pauses, refills) are
   * not what the test judges. Time moves only between turns, never while a callback runs.
   */
  async settle<T>(work: Promise<T>, stepMs: number, idleTurns = 50): Promise<T> {
    let settled = false;
    const outcome = work.finally(() => {
      settled = true;
    });
    outcome.catch(() => undefined);
    for (let steps = 0; !settled; steps++) {
      for (let i = 0; i < idleTurns && !settled; i++) await turn();
      if (settled) break;
      if (steps === MAX_STEPS) throw new Error(`not settled after ${MAX_STEPS} steps of ${stepMs} ms; timers pending: ${this.timers.size}`);
      this.advance(stepMs);
    }
    return outcome;
  }

  private add(p: Pending): Timer {
    const id = ++this.seq;
    this.timers.set(id, p);
    return { id, unref: () => undefined } as Timer;
  }
}
