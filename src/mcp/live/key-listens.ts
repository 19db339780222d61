import type { Subscriptions } from './subscriptions.js';

/**
 * The 2026-07-28 listen streams of one key (subscriptions/listen): each URI is subscribed to
 * once, however many open streams ask for it, and given up when the last of them closes. The
 * key's Subscriptions publishes each change once; the SDK's listen router hands it to every
 * stream whose filter names the URI.
 */
export class KeyListens {
  private readonly counts = new Map<string, number>();

  constructor(readonly subscriptions: Subscriptions) {}

  /** Subscribe a stream's URIs; resolves to what ends them. A URI refused refuses the stream, and nothing of it is kept. */
  async open(uris: readonly string[]): Promise<() => Promise<void>> {
    const taken: string[] = [];
    try {
      for (const uri of new Set(uris)) {
        const n = this.counts.get(uri) ?? 0;
        // Counted before the wait: a second stream asking for it meanwhile does not subscribe again.
        this.counts.set(uri, n + 1);
        taken.push(uri);
        if (n === 0) await this.subscriptions.subscribe(uri);
      }
    } catch (err) {
      await this.release(taken);
      throw err;
    }
    let released = false;
    return async () => {
      if (released) return;
      released = true;
      await this.release(taken);
    };
  }

  /** URIs subscribed to now. */
  get size(): number {
    return this.counts.size;
  }

  private async release(uris: readonly string[]): Promise<void> {
    for (const uri of uris) {
      const n = (this.counts.get(uri) ?? 1) - 1;
      if (n > 0) {
        this.counts.set(uri, n);
        continue;
      }
      this.counts.delete(uri);
      await this.subscriptions.unsubscribe(uri);
    }
  }
}
