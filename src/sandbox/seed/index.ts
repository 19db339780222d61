import { Rng } from '../rng.js';
import { Store } from '../store/store.js';
import { seedCampaigns } from './campaigns.js';
import { seedContent } from './content.js';
import { installConversations } from './conversations.js';
import { seedCore } from './core.js';
import { seedLeads } from './leads.js';
import { seedScheduling } from './scheduling.js';
import { seedWork } from './work.js';

export interface SeedOptions {
  seed: number;
  now: Date;
  /** Leads in workspace acme; globex gets about 40. */
  leads: number;
}

/**
 * The whole dataset, deterministic: each part draws from its own generator derived from
 * the seed, so adding data to one part does not shift another. Order matters: later
 * parts hang off earlier ones (tasks off leads and sequences, meetings off event types).
 */
export function buildStore(opts: SeedOptions): Store {
  const store = new Store(opts.now, opts.seed);
  const part = (label: string) => Rng.derive(opts.seed, label);
  seedCore(store, part('core'));
  seedCampaigns(store, part('campaigns'));
  seedLeads(store, part('leads'), opts);
  installConversations(store, part('conversations'), opts);
  seedScheduling(store, part('scheduling'), opts);
  seedContent(store, part('content'), opts);
  seedWork(store, part('work'), opts);
  return store;
}
