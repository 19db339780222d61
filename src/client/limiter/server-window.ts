import { type Clock, type Timer, systemClock } from '../../clock.js';

export interface ServerWindowOptions {
  /** Turn this long after x-ratelimit-reset, for clock skew with the server. */
  marginMs: number;
  /** Window assumed when the server sends no x-ratelimit-reset. */
  fallbackMs: number;
  /** The server's window turned; `ended` is the end of the window that is over, null when none was known. */
  onTurn: (ended: number | null) => void;
  clock?: Clock;
}

/**
 * The server's current rate window as its responses tell it (x-ratelimit-reset), and the
 * timer that turns it. Both limiters, in-process and Redis-shared, place responses with it.
 */
export class ServerWindow {
  /** End of the server's current window (epoch ms) when a header told it. */
  end: number | null = null;
  /** Windows ending at or before this are over: headers that name them are stale. */
  private pastEnd = 0;
  private timer: Timer | null = null;
  private timerAt = 0;
  private closed = false;

  private readonly clock: Clock;

  constructor(private readonly o: ServerWindowOptions) {
    this.clock = o.clock ?? systemClock;
  }

  /**
   * Place a response in the server's windows by its x-ratelimit-reset: the current one,
   * an older one (stale: it says nothing about now), or a newer one (the server moved on
   * before our timer fired: turn now).
   */
  place(resetMs: number | undefined): 'current' | 'stale' {
    if (resetMs === undefined) return 'current';
    if (resetMs <= this.pastEnd) return 'stale';
    if (this.end === null) {
      this.end = resetMs;
      this.arm(resetMs + this.o.marginMs);
      return 'current';
    }
    if (resetMs > this.end) {
      this.turn();
      this.end = resetMs;
      this.arm(resetMs + this.o.marginMs);
      return 'current';
    }
    return resetMs === this.end ? 'current' : 'stale';
  }

  /** A turn must come even from a server that sends no reset: then after the fallback window. */
  ensureTimer(): void {
    if (this.timer || this.closed) return;
    this.arm(this.end !== null ? this.end + this.o.marginMs : this.clock.now() + this.o.fallbackMs);
  }

  /** When the next turn is due, if one is armed. */
  get turnsAt(): number | null {
    return this.timer ? this.timerAt : null;
  }

  private arm(at: number): void {
    if (this.closed) return;
    if (this.timer) this.clock.clearTimeout(this.timer);
    this.timerAt = at;
    this.timer = this.clock.setTimeout(
      () => {
        this.timer = null;
        this.turn();
      },
      Math.max(0, at - this.clock.now()),
    );
    this.timer.unref();
  }

  private turn(): void {
    const ended = this.end;
    if (ended !== null) this.pastEnd = Math.max(this.pastEnd, ended);
    this.end = null;
    this.o.onTurn(ended);
  }

  close(): void {
    this.closed = true;
    if (this.timer) this.clock.clearTimeout(this.timer);
    this.timer = null;
  }
}
