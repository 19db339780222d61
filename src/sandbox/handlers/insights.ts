import { type Ctx, type AreaHandlers, wsOf } from '../context.js';
import { fail, notFound } from '../errors.js';
import type { SearchWindow } from '../../api/checks.js';
import { SendingModel, campaignInsight, dailySeries, daysOf, summary } from '../insights.js';
import { keysetPage } from '../paging.js';
import { campaignTagsOf } from '../views/content.js';
import { positionalPage, roster } from './campaigns.js';

/** Every insights endpoint has a window rule in the table, so the window is always resolved. */
const windowOf = (ctx: Ctx): SearchWindow => ctx.window!;

export const insightsHandlers = {
  get_insights_summary(ctx) {
    const ws = wsOf(ctx);
    const now = ctx.now();
    const q = ctx.query;
    const window = windowOf(ctx);
    let member: { memberId: string; userId: string } | undefined;
    if (q.member_id !== undefined) {
      const m = ctx.store.memberByMemberId(ws.id, q.member_id);
      if (!m) fail('invalid_request', `member_id '${q.member_id}' is not a member of workspace '${ws.id}'.`, { param: 'member_id' });
      member = { memberId: m.member_id, userId: m.user_id };
    }
    return { body: summary(ctx.store, ws.id, window, now, member) };
  },
  get_campaign_insights(ctx) {
    const ws = wsOf(ctx);
    const now = ctx.now();
    const q = ctx.query;
    const window = windowOf(ctx);
    const campaigns = roster(ctx.store, ws.id, now.getTime());
    if (q.campaign_id !== undefined && !campaigns.some((c) => c.id === q.campaign_id)) notFound('campaign', 'campaign_id');
    const model = new SendingModel(ctx.store, now);
    return {
      body: positionalPage(
        ctx,
        'get_campaign_insights',
        campaigns,
        (c) => campaignInsight(ctx.store, model, c, window, campaignTagsOf(ctx.store, c)),
        q.campaign_id !== undefined ? (c) => c.id === q.campaign_id : undefined,
      ),
    };
  },
  get_daily_insights(ctx) {
    const ws = wsOf(ctx);
    const now = ctx.now();
    const q = ctx.query;
    const window = windowOf(ctx);
    const days = daysOf(window);
    const series = dailySeries(ctx.store, ws.id, roster(ctx.store, ws.id, now.getTime()), new SendingModel(ctx.store, now), days, window);
    const metric = q.metric;
    return {
      body: keysetPage({
        cursors: ctx.cursors,
        endpoint: 'get_daily_insights',
        scope: ws.id,
        req: { ...ctx.page(), order: 'asc' },
        items: series,
        keyOf: (p) => [p.date],
        // metric names one figure for charting: each point also carries it as `value` (docs/spec-gaps.md).
        view: (p) => (metric ? { ...p, metric, value: p[metric] } : p),
      }),
    };
  },
} satisfies AreaHandlers;
