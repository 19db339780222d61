/**
 * A periodic re-read of what the key may do (Authentication 4: a demotion shrinks the
 * key at once, a promotion widens it), one per connected session. The timer never keeps
 * the process alive, and a tick never overlaps the previous one.
 */
export class ScopeWatch {
  private timer: NodeJS.Timeout | null = null;
  private running = false;

  constructor(
    private readonly everyMs: number,
    private readonly tick: () => Promise<void>,
  ) {}

  get active(): boolean {
    return this.timer !== null;
  }

  start(): void {
    if (this.timer || this.everyMs <= 0) return;
    this.timer = setInterval(() => void this.run(), this.everyMs);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  private async run(): Promise<void> {
    if (this.running) return;
    this.running = true;
    try {
      await this.tick();
    } finally {
      this.running = false;
    }
  }
}
