/** The share of a key's read bucket that watching may spend, by default. */
export const WATCH_SHARE = 0.1;
/** The window a budget counts polls in. */
export const MINUTE_MS = 60_000;

/**
 * Polls sent in the last minute, under a cap that follows the key's read bucket: at most
 * `share` of it per minute, and at least one poll a minute so a tiny bucket still watches.
 */
export class PollBudget {
  private sent: number[] = [];

  constructor(
    private readonly readPerMinute: () => number,
    private readonly share = WATCH_SHARE,
    private readonly now: () => number = Date.now,
  ) {}

  /** Polls a minute, as the key's read bucket stands now. */
  get cap(): number {
    return Math.max(1, Math.floor(this.readPerMinute() * this.share));
  }

  /** Milliseconds until a poll fits; 0 when one fits now. */
  wait(): number {
    const t = this.now();
    this.sent = this.sent.filter((s) => s > t - MINUTE_MS);
    return this.sent.length < this.cap ? 0 : this.sent[0]! + MINUTE_MS - t;
  }

  spend(): void {
    this.sent.push(this.now());
  }
}
