import { Rng } from '../rng.js';
import { Store } from '../store/store.js';
import { seedCampaigns } from './campaigns.js';
import { seedCore } from './core.js';

export interface SeedOptions {
  seed: number;
  now: Date;
  /** Leads in workspace acme; globex gets about 40. */
  leads: number;
}

/**
 * The whole dataset, deterministic: each part draws from its own generator derived from
 * the seed, so adding data to one part does not shift another.
 */
export function buildStore(opts: SeedOptions): Store {
  const store = new Store(opts.now, opts.seed);
  seedCore(store, Rng.derive(opts.seed, 'core'));
  seedCampaigns(store, Rng.derive(opts.seed, 'campaigns'));
  return store;
}
