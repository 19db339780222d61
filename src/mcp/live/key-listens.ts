import { ProtocolError } from '@modelcontextprotocol/server';
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

/** A listen request's resource URIs (params.notifications.resourceSubscriptions); none when it names none. */
export function listenUris(message: unknown): unknown[] {
  const uris = (message as { params?: { notifications?: { resourceSubscriptions?: unknown } } }).params?.notifications?.resourceSubscriptions;
  return Array.isArray(uris) ? uris : [];
}

/** Why a listen stream is refused, as its JSON-RPC error. */
export interface ListenRefusal {
  code: number;
  message: string;
}

/**
 * Open a listen stream's URIs on the listens: what ends them, or the refusal (a URI that is not
 * a string, more than `max`, or one that cannot be watched: the subscription's own words).
 */
export async function openListen(listens: KeyListens, uris: unknown[], max: number): Promise<{ stop: () => Promise<void> } | { refused: ListenRefusal }> {
  if (uris.length > max || uris.some((u) => typeof u !== 'string'))
    return { refused: { code: -32602, message: `A listen stream names at most ${max} resource URIs, each a string.` } };
  try {
    return { stop: await listens.open(uris as string[]) };
  } catch (err) {
    if (err instanceof ProtocolError) return { refused: { code: err.code, message: err.message } };
    throw err;
  }
}
