import type { EndpointName } from '../../api/endpoints.js';
import { LIMITS } from '../../api/enums.js';
import { type Ctx, type AreaHandlers, wsOf } from '../context.js';
import { keysetPage } from '../paging.js';
import { SORT, type Store } from '../store/store.js';
import type { CampaignRec } from '../store/types.js';
import { campaignTagView, campaignView, sequenceView, templateView, visibleTo } from '../views/content.js';

/**
 * The workspace's campaign roster as the sending platform last returned it: a snapshot
 * kept for 60 seconds (Limits: campaign roster cache), so a campaign added upstream shows
 * up only once the snapshot expires.
 */
export function roster(store: Store, workspace: string, nowMs: number): readonly CampaignRec[] {
  const hit = store.rosterCache.get(workspace);
  if (hit && nowMs - hit.at < LIMITS.campaign_roster_cache_seconds * 1000) return hit.items;
  const items = store.campaigns.inGroup(workspace).map((c) => ({ ...c, tag_ids: [...c.tag_ids], steps: [...c.steps] }));
  store.rosterCache.set(workspace, { at: nowMs, items });
  return items;
}

/**
 * Paging emulated in memory by position (Pagination: the campaign roster): the cursor is an
 * offset into whatever list is current, not a stable database cursor.
 */
export function positionalPage<T, V>(ctx: Ctx, endpoint: EndpointName, items: readonly T[], view: (t: T) => V, filter?: (t: T) => boolean) {
  const ws = wsOf(ctx);
  const indexed = items.map((item, i) => ({ i, item }));
  return keysetPage({
    cursors: ctx.cursors,
    endpoint,
    scope: ws.id,
    req: { ...ctx.page(), order: 'asc' },
    items: indexed,
    keyOf: (x) => [x.i],
    ...(filter ? { filter: (x: { item: T }) => filter(x.item) } : {}),
    view: (x) => view(x.item),
  });
}

export const campaignsHandlers = {
  list_sequences(ctx) {
    const ws = wsOf(ctx);
    const { active, visibility, expand } = ctx.query;
    const canSee = visibleTo(ctx.caller.owner.id);
    const expandTemplate = expand?.includes('templates')
      ? (id: string | null) => {
          const t = id ? ctx.store.templates.get(id) : undefined;
          return t && (t.owner_workspace === ws.id || t.scope === 'global') && canSee(t) ? templateView(t) : null;
        }
      : undefined;
    return {
      body: keysetPage({
        cursors: ctx.cursors,
        endpoint: 'list_sequences',
        scope: ws.id,
        req: ctx.page(),
        items: ctx.store.sequences.sorted(ws.id, 'created', SORT.created),
        keyOf: SORT.created,
        filter: (s) => !s.deleted && canSee(s) && (active === undefined || s.active === active) && (visibility === undefined || s.visibility === visibility),
        view: (s) => sequenceView(s, expandTemplate),
      }),
    };
  },
  list_campaigns(ctx) {
    const ws = wsOf(ctx);
    return { body: positionalPage(ctx, 'list_campaigns', roster(ctx.store, ws.id, ctx.now().getTime()), (c) => campaignView(ctx.store, c)) };
  },
  list_campaign_tags(ctx) {
    const ws = wsOf(ctx);
    const campaigns = roster(ctx.store, ws.id, ctx.now().getTime());
    const count = (tagId: string) => campaigns.filter((c) => c.tag_ids.includes(tagId)).length;
    return { body: positionalPage(ctx, 'list_campaign_tags', ctx.store.campaignTags.inGroup(ws.id), (t) => campaignTagView(t, count(t.id))) };
  },
} satisfies AreaHandlers;
