import type { Rng } from '../rng.js';
import type { Store } from '../store/store.js';

/** Seeds the lazy conversation generator (store.conversationOf). */
export function installConversations(store: Store, rng: Rng, opts: { leads: number }): void {
  void store;
  void rng;
  void opts;
}
