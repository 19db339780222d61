import type { Rng } from '../rng.js';
import type { Store } from '../store/store.js';

/** Seeds event types with hosts, form fields, availability. */
export function seedScheduling(store: Store, rng: Rng, opts: { leads: number }): void {
  void store;
  void rng;
  void opts;
}
