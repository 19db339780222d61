import type { Clock, Timer } from '../../src/clock.js';

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

  private add(p: Pending): Timer {
    const id = ++this.seq;
    this.timers.set(id, p);
    return { id, unref: () => undefined } as Timer;
  }
}
