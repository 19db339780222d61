import { tokensOf } from '../render.js';
import type { Store } from '../store/store.js';
import type { AssetRec, CampaignRec, CampaignTagRec, SequenceRec, SequenceStepRec, TemplateFolderRec, TemplateRec } from '../store/types.js';

/** A private record is seen only by its creator (Authentication rule 7, applied alike to templates and sequences). */
export function visibleTo(userId: string) {
  return (rec: { visibility: string; created_by_id: string | null }) => rec.visibility !== 'private' || rec.created_by_id === userId;
}

/** template resource. The AI instructions stay inside the sandbox. */
export function templateView(t: TemplateRec) {
  return {
    object: 'template' as const,
    id: t.id,
    workspace: t.workspace,
    scope: t.scope,
    name: t.name,
    subject: t.subject,
    body: t.body,
    is_html: t.is_html,
    visibility: t.visibility,
    folder_id: t.folder_id,
    order_index: t.order_index,
    // "token names found in the body": a token only the subject carries is not among them.
    variables: tokensOf(t.body),
    ai_variables: t.ai_variables.map((v) => ({ name: v.name, read_website: v.read_website })),
    created_by_id: t.created_by_id,
    created_at: t.created_at,
  };
}

/** template_folder resource (shape not shown by the spec: docs/spec-gaps.md). */
export function folderView(f: TemplateFolderRec, templateCount: number) {
  return {
    object: 'template_folder' as const,
    id: f.id,
    workspace: f.workspace,
    name: f.name,
    order_index: f.order_index,
    template_count: templateCount,
    created_at: f.created_at,
  };
}

export function assetView(a: AssetRec) {
  return {
    object: 'asset' as const,
    id: a.id,
    workspace: a.workspace,
    kind: a.kind,
    title: a.title,
    url: a.kind === 'text' ? null : a.url,
    body: a.kind === 'text' ? a.body : null,
    visibility: a.visibility,
    order_index: a.order_index,
    created_by_id: a.created_by_id,
    created_at: a.created_at,
  };
}

/** Weekday names listed Monday first, as the spec's example (mon..sun); bit i is UTC weekday i, 0 = Sunday. */
const WEEK_FROM_MONDAY: readonly [number, string][] = [
  [1, 'mon'],
  [2, 'tue'],
  [3, 'wed'],
  [4, 'thu'],
  [5, 'fri'],
  [6, 'sat'],
  [0, 'sun'],
];
export function sendDays(mask: number): string[] {
  return WEEK_FROM_MONDAY.filter(([bit]) => (mask >> bit) & 1).map(([, name]) => name);
}

export function stepView(s: SequenceStepRec, template?: ReturnType<typeof templateView> | null) {
  return {
    object: 'sequence_step' as const,
    id: s.id,
    order_index: s.order_index,
    type: s.type,
    title: s.title,
    delay_value: s.delay_value,
    delay_unit: s.delay_unit,
    wait_for_previous: s.wait_for_previous,
    template_id: s.template_id,
    email_body: s.email_body,
    linkedin_text: s.linkedin_text,
    ...(template !== undefined ? { template } : {}),
  };
}

/** sequence resource; with expand=templates each step also carries `template` (or null when not visible). */
export function sequenceView(s: SequenceRec, expandTemplate?: (id: string | null) => ReturnType<typeof templateView> | null) {
  return {
    object: 'sequence' as const,
    id: s.id,
    workspace: s.workspace,
    name: s.name,
    active: s.active,
    visibility: s.visibility,
    send_days: sendDays(s.send_days_mask),
    send_days_mask: s.send_days_mask,
    created_by_id: s.created_by_id,
    created_at: s.created_at,
    steps: [...s.steps].sort((a, b) => a.order_index - b.order_index).map((st) => stepView(st, expandTemplate ? expandTemplate(st.template_id) : undefined)),
  };
}

/** A campaign's tags as {id, name}, the shape campaign and campaign_insight share. */
export function campaignTagsOf(store: Store, c: CampaignRec) {
  return c.tag_ids.flatMap((id) => {
    const t = store.campaignTags.get(id);
    return t ? [{ id: t.id, name: t.name }] : [];
  });
}

export function campaignView(store: Store, c: CampaignRec) {
  return { object: 'campaign' as const, id: c.id, workspace: c.workspace, name: c.name, status: c.status, tags: campaignTagsOf(store, c) };
}

export function campaignTagView(t: CampaignTagRec, campaignCount: number) {
  return { object: 'campaign_tag' as const, id: t.id, workspace: t.workspace, name: t.name, campaign_count: campaignCount };
}
