import { type Ctx, type AreaHandlers, wsOf } from '../context.js';
import { fail, notFound } from '../errors.js';
import { compareKeys, keysetPage } from '../paging.js';
import { renderTemplate } from '../render.js';
import { SORT } from '../store/store.js';
import type { TemplateRec } from '../store/types.js';
import { assetView, folderView, templateView, visibleTo } from '../views/content.js';

/** A workspace's templates as the caller sees them: its own plus global ones shared from elsewhere. */
function templatesFor(ctx: Ctx): TemplateRec[] {
  const ws = wsOf(ctx);
  const canSee = visibleTo(ctx.caller.owner.id);
  const out = ctx.store.templates.inGroup(ws.id).filter(canSee);
  for (const t of ctx.store.templates.all()) {
    if (t.scope === 'global' && t.owner_workspace !== ws.id && canSee(t)) out.push(t);
  }
  return out.sort((a, b) => compareKeys(SORT.ordered(a), SORT.ordered(b)));
}

/** A template of another workspace is 404 unless global; another person's private one is 404 too. */
function findTemplate(ctx: Ctx, id: string): TemplateRec {
  const ws = wsOf(ctx);
  const t = ctx.store.templates.get(id);
  if (!t || (t.owner_workspace !== ws.id && t.scope !== 'global') || !visibleTo(ctx.caller.owner.id)(t)) {
    notFound('template', 'template_id');
  }
  return t;
}

export const templatesHandlers = {
  list_templates(ctx) {
    const ws = wsOf(ctx);
    const { folder_id, visibility } = ctx.query;
    if (folder_id !== undefined && ctx.store.templateFolders.get(folder_id)?.workspace !== ws.id) notFound('template folder', 'folder_id');
    return {
      body: keysetPage({
        cursors: ctx.cursors,
        endpoint: 'list_templates',
        scope: ws.id,
        req: ctx.page(),
        items: templatesFor(ctx),
        keyOf: SORT.ordered,
        filter: (t) => (folder_id === undefined || t.folder_id === folder_id) && (visibility === undefined || t.visibility === visibility),
        view: templateView,
      }),
    };
  },
  get_template: (ctx) => ({ body: templateView(findTemplate(ctx, ctx.path.template_id)) }),
  render_template(ctx) {
    const ws = wsOf(ctx);
    const template = findTemplate(ctx, ctx.path.template_id);
    const body = ctx.body;
    const lead = ctx.store.leads.get(body.lead_id);
    if (!lead || lead.workspace !== ws.id) notFound('lead', 'lead_id');
    if (body.resolve_ai_variables === true) {
      fail('unprocessable', 'resolve_ai_variables=true is refused in v1: fill the AI variables yourself through overrides.', { param: 'resolve_ai_variables' });
    }
    const r = renderTemplate({
      store: ctx.store,
      template,
      lead,
      ws,
      owner: ctx.caller.owner,
      now: ctx.now(),
      overrides: body.overrides ?? {},
      canSee: visibleTo(ctx.caller.owner.id),
    });
    return {
      body: {
        object: 'rendered_template',
        template_id: template.id,
        lead_id: lead.id,
        subject: r.subject,
        body: r.body,
        is_html: template.is_html,
        resolved: r.resolved,
        unresolved: r.unresolved,
        ready_to_send: r.unresolved.length === 0,
      },
    };
  },
  list_template_folders(ctx) {
    const ws = wsOf(ctx);
    const counts = new Map<string, number>();
    for (const t of templatesFor(ctx)) if (t.folder_id) counts.set(t.folder_id, (counts.get(t.folder_id) ?? 0) + 1);
    return {
      body: keysetPage({
        cursors: ctx.cursors,
        endpoint: 'list_template_folders',
        scope: ws.id,
        req: ctx.page(),
        items: ctx.store.templateFolders.sorted(ws.id, 'ordered', SORT.ordered),
        keyOf: SORT.ordered,
        view: (f) => folderView(f, counts.get(f.id) ?? 0),
      }),
    };
  },
  list_assets(ctx) {
    const ws = wsOf(ctx);
    const { kind } = ctx.query;
    const canSee = visibleTo(ctx.caller.owner.id);
    return {
      body: keysetPage({
        cursors: ctx.cursors,
        endpoint: 'list_assets',
        scope: ws.id,
        req: ctx.page(),
        items: ctx.store.assets.sorted(ws.id, 'ordered', SORT.ordered),
        keyOf: SORT.ordered,
        filter: (a) => canSee(a) && (kind === undefined || a.kind === kind),
        view: assetView,
      }),
    };
  },
} satisfies AreaHandlers;
