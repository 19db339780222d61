import type { Rng } from '../rng.js';
import type { Store } from '../store/store.js';

/** Seeds tasks, notes and meetings. */
export function seedWork(store: Store, rng: Rng, opts: { leads: number }): void {
  void store;
  void rng;
  void opts;
}
