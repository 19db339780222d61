import type { Rng } from '../rng.js';
import type { Store } from '../store/store.js';

/** Seeds templates, template folders, assets, sequences. */
export function seedContent(store: Store, rng: Rng, opts: { leads: number }): void {
  void store;
  void rng;
  void opts;
}
