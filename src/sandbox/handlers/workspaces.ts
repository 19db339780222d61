import { ENDPOINTS } from '../../api/endpoints.js';
import { ENUMS, LEAD_DETAIL_EXPANSIONS, LEAD_LIST_EXPANSIONS, LIMITS, MAX_EXPANSIONS, RATE_LIMITS } from '../../api/enums.js';
import { type Ctx, type AreaHandlers, wsOf } from '../context.js';
import { keysetPage, wholeList } from '../paging.js';
import type { Store } from '../store/store.js';
import type { WorkspaceRec } from '../store/types.js';
import { memberView } from '../views/people.js';

function reachable(ctx: Ctx): WorkspaceRec[] {
  return [...ctx.store.workspaces.values()].filter((w) => ctx.caller.reaches(w));
}

function workspaceView(ctx: Ctx, w: WorkspaceRec, include: readonly string[] = []) {
  const out: Record<string, unknown> = {
    object: 'workspace',
    id: w.id,
    name: w.name,
    domain: w.domain,
    logo_url: w.logo_url,
    active: w.active,
    features: { ...w.features },
    granted_scopes: [...ctx.caller.scopes],
    synced_at: w.synced_at,
  };
  if (include.includes('counts')) out.counts = counts(ctx.store, w.id, ctx.now().getTime());
  if (include.includes('sdr_notes')) out.sdr_notes = w.sdr_notes;
  return out;
}

function counts(store: Store, ws: string, now: number) {
  let openTasks = 0;
  for (const t of store.tasks.inGroup(ws)) if (t.status === 'open' && !t.deleted_at) openTasks++;
  let upcoming = 0;
  for (const m of store.meetings.inGroup(ws)) if (m.starts_at && Date.parse(m.starts_at) > now) upcoming++;
  return { leads: store.leads.inGroup(ws).length, open_tasks: openTasks, meetings_upcoming: upcoming };
}

function capabilities() {
  const filters: Record<string, string[]> = {};
  for (const e of ENDPOINTS) if (Object.keys(e.query).length) filters[e.name] = Object.keys(e.query);
  return {
    object: 'capabilities',
    api_version: 'v1',
    enums: {
      ...Object.fromEntries(Object.entries(ENUMS).map(([k, v]) => [k, [...v]])),
    },
    notes: [
      'classification can hold values not listed in enums.lead_classification',
      "'dnc' is an input alias for 'unsubscribed' and is never returned",
      "assets have no 'global' visibility; sending it gives 422 unprocessable",
    ],
    limits: {
      page_size_default: LIMITS.page_default,
      page_size_max: LIMITS.page_max,
      expansions_max: MAX_EXPANSIONS,
      q_max_length: LIMITS.q_max,
      lead_tag_filter_max: LIMITS.lead_tag_filter_max,
      priority_ids_max: LIMITS.priority_ids_max,
      insights_window_days: LIMITS.insights_window_days,
      daily_window_days: LIMITS.daily_window_days,
      slots_window_days: LIMITS.slots_window_days,
      messages_max: LIMITS.messages_max,
      sibling_threads_max: LIMITS.sibling_threads_max,
      campaign_roster_cache_seconds: LIMITS.campaign_roster_cache_seconds,
      rate_limits: {
        read_per_minute: RATE_LIMITS.read,
        write_per_minute: RATE_LIMITS.write,
        upstream_per_minute: RATE_LIMITS.upstream,
        thread_per_minute: RATE_LIMITS.thread,
        max_concurrent: RATE_LIMITS.max_concurrent,
      },
    },
    filters,
    expansions: { lead_list: [...LEAD_LIST_EXPANSIONS], lead_detail: [...LEAD_DETAIL_EXPANSIONS], max_per_request: MAX_EXPANSIONS },
    ids: { owner_id_parts: 1, member_id_parts: 2, lead_tag_id_parts: 2 },
    lead_tags: {
      filter_match: 'any',
      filter_item_limit: LIMITS.lead_tag_filter_max,
      roster_order: 'workspace',
      assigned_order: 'applied',
      replace_semantics: 'whole_set',
    },
    lead_priorities: { owner_scoped: true, max_leads_per_request: LIMITS.priority_ids_max },
    lead_statuses: { values: [...ENUMS.lead_status], input_aliases: { dnc: 'unsubscribed' }, filter_extra: ['booked', 'disqualified'] },
    mobile_sessions: { ttl_days: 30, max_active_per_user: 1, token_prefix: 'rims_' },
    phases: {
      v2: ['bookings:write', 'events:read', 'webhooks:read', 'webhooks:write', 'replies:send'],
      v3: ['assignments:write', 'enrichment:read', 'leads:suppress', 'sequences:write'],
    },
    deprecated: [],
  };
}

/** The figures actually enforced (the spec's, unless the sandbox was started with others). */
function rateLimitsOf(ctx: Ctx) {
  const f = ctx.limits.figures();
  return { read_per_minute: f.read, write_per_minute: f.write, thread_per_minute: f.thread, upstream_per_minute: f.upstream, max_concurrent: f.max_concurrent };
}

export const workspacesHandlers = {
  get_me(ctx) {
    const { caller, store } = ctx;
    const k = caller.key;
    return {
      body: {
        object: 'me',
        api_version: 'v1',
        key: { id: k.id, name: k.name, all_workspaces: k.all_workspaces },
        owner: {
          id: caller.owner.id,
          email: caller.owner.email,
          role: caller.owner.role,
          name: caller.owner.name,
          timezone: caller.owner.timezone,
          active: caller.owner.active,
        },
        scopes: [...caller.scopes],
        granted_scopes: [...caller.scopes],
        scopes_withheld: caller.withheld,
        workspaces: reachable(ctx).map((w) => ({
          object: 'workspace',
          id: w.id,
          name: w.name,
          member_id: store.memberOfUser(w.id, caller.owner.id)?.member_id ?? `${caller.owner.id}_${w.id.replace(/[^a-z0-9]/g, '')}`,
          slug: w.id,
        })),
        description: k.description,
        display_prefix: `rik_${k.environment}_${k.handle}`,
        environment: k.environment,
        all_workspaces: k.all_workspaces,
        created_at: k.created_at,
        expires_at: k.expires_at,
        last_used_at: k.last_used_at,
        rate_limits: rateLimitsOf(ctx),
        read_only_mode: false,
      },
    };
  },
  get_capabilities: () => ({ body: capabilities() }),
  list_workspaces: (ctx) => ({ body: wholeList(reachable(ctx).map((w) => workspaceView(ctx, w))) }),
  get_workspace: (ctx) => ({ body: workspaceView(ctx, wsOf(ctx), ctx.query.include ?? []) }),
  list_members(ctx) {
    const ws = wsOf(ctx);
    const members = ctx.store.membersOf(ws.id);
    const { active, assignable } = ctx.query;
    const view = (m: (typeof members)[number]) => memberView(ctx.store, m);
    return {
      body: keysetPage({
        cursors: ctx.cursors,
        endpoint: 'list_members',
        scope: ws.id,
        req: ctx.page(),
        defaultOrder: 'asc',
        items: [...members].sort((a, b) => (a.member_id < b.member_id ? -1 : 1)),
        keyOf: (m) => [m.member_id],
        filter: (m) => {
          const v = view(m);
          return (active === undefined || v.active === active) && (assignable === undefined || v.assignable === assignable);
        },
        view,
      }),
    };
  },
} satisfies AreaHandlers;
