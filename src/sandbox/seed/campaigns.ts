import type { Rng } from '../rng.js';
import type { Store } from '../store/store.js';
import { addDays, day } from './time.js';

const ACME_CAMPAIGNS = [
  ['Q3 CFO outreach', 'active'],
  ['Series B founders', 'active'],
  ['RevOps leaders EU', 'paused'],
  ['Webinar follow-up', 'completed'],
  ['Agency partners', 'active'],
  ['Healthcare IT', 'draft'],
  ['Re-engage closed-lost', 'active'],
  ['Legacy import', 'archived_legacy'],
] as const;
const GLOBEX_CAMPAIGNS = [
  ['Globex launch', 'active'],
  ['Globex nurture', 'paused'],
  ['Globex events', 'completed'],
] as const;

const CAMPAIGN_TAGS: Record<string, string[]> = {
  acme: ['Enterprise', 'Mid-market', 'EU', 'Founders', 'Partners'],
  globex: ['Launch', 'Nurture'],
};

const LEAD_TAGS: Record<string, string[]> = {
  acme: ['hot', 'follow-up-q1', 'needs-pricing', 'champion', 'competitor-user', 'do-not-call', 'referral', 'event-lead', 'vip', 'legal-review'],
  globex: ['hot', 'partner', 'stale'],
  initech: ['archived'],
};

/** Campaigns, campaign tags and the manual lead-tag roster of each workspace. */
export function seedCampaigns(store: Store, rng: Rng): void {
  const anchorDay = day(store.anchor);
  for (const [ws, names] of Object.entries(CAMPAIGN_TAGS)) {
    names.forEach((name, i) => {
      store.campaignTags.add({ id: `ctg_${ws}${i + 1}${rng.token(6)}`, workspace: ws, name });
    });
  }
  for (const [ws, list] of [
    ['acme', ACME_CAMPAIGNS],
    ['globex', GLOBEX_CAMPAIGNS],
  ] as const) {
    const tags = store.campaignTags.inGroup(ws);
    list.forEach(([name, status], i) => {
      const stepCount = rng.int(2, 4);
      store.campaigns.add({
        id: `cmp_${ws}${i + 1}${rng.token(8)}`,
        workspace: ws,
        name,
        status,
        tag_ids: tags.filter((_, t) => (i + t) % 3 === 0).map((t) => t.id),
        steps: Array.from({ length: stepCount }, (_, s) => ({
          step_id: s + 1,
          label: s === 0 ? 'Initial email' : `Follow-up ${s}`,
          subject: s === 0 ? `Quick question about ${name.toLowerCase()}` : null,
        })),
        contacts: rng.int(800, 5000),
        started_on: addDays(anchorDay, -rng.int(30, 200)),
      });
    });
  }
  for (const [ws, names] of Object.entries(LEAD_TAGS)) {
    names.forEach((name, i) => {
      store.leadTags.add({ id: `ltg_${rng.token(8)}_${ws}`, workspace: ws, name, order_index: i });
    });
  }
}
