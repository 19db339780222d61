import { beforeAll, describe, expect, it } from 'vitest';
import { callOk } from '../test/helpers/tool-calls.js';
import { everyToolCovered, firstId, type InvalidCall, toolArea } from '../test/helpers/tool-area.js';

/** The templates tools (tools/templates.ts), served in process: valid calls, then one invalid call each. */
const area = toolArea('templates');
const ids = { template: '', aiTemplate: { id: '', vars: [] as string[] }, folder: '' };
beforeAll(async () => {
  const templates = (await callOk(area.admin, 'list_templates', { limit: 200 })).structured.data;
  ids.template = templates[0].id;
  const ai = templates.find((t: any) => (t.ai_variables ?? []).length > 0);
  ids.aiTemplate = { id: ai.id, vars: ai.ai_variables.map((v: any) => v.name) };
  ids.folder = await firstId(area, 'list_template_folders');
});

describe('Templates: read, render with AI overrides, folders and assets', () => {
  it('list_templates and get_template', async () => {
    // The compact view leaves folder_id out (it is a filter): the full view shows it.
    const list = await area.ok('list_templates', { folder_id: ids.folder, view: 'full' });
    // A folder without templates answers no data at all (empty lists leave both forms).
    for (const t of list.structured.data ?? []) expect(t.folder_id).toBe(ids.folder);
    const { structured } = await area.ok('get_template', { template_id: ids.template });
    expect(structured).toMatchObject({ object: 'template', id: ids.template });
    expect(Array.isArray(structured.variables)).toBe(true);
  });
  it('render_template fills AI variables from overrides; ready_to_send follows unresolved', async () => {
    const lead = area.leads[3].id;
    const overrides = Object.fromEntries(ids.aiTemplate.vars.map((v, i) => [v, `Override number ${i} for ${v}`]));
    const { structured } = await area.ok('render_template', { template_id: ids.aiTemplate.id, lead_id: lead, overrides });
    expect(structured).toMatchObject({ object: 'rendered_template', template_id: ids.aiTemplate.id, lead_id: lead });
    for (const [name, value] of Object.entries(overrides)) {
      expect(structured.body).toContain(value);
      expect(structured.unresolved).not.toContain(name);
    }
    expect(structured.ready_to_send).toBe(structured.unresolved.length === 0);
  });
  it('list_template_folders and list_assets', async () => {
    const folders = await area.ok('list_template_folders');
    expect(folders.structured.data.map((f: any) => f.id)).toContain(ids.folder);
    const assets = await area.ok('list_assets', { kind: 'link' });
    expect(assets.structured.data.length).toBeGreaterThan(0);
    for (const a of assets.structured.data) expect(a.kind).toBe('link');
  });
});

const L = 'lead_abc123';
const INVALID: InvalidCall[] = [
  ['list_templates', { folder_id: 'tpl_abc123' }, 'invalid_id', 'folder_id'],
  ['get_template', { template_id: 'tfd_abc123' }, 'invalid_id', 'template_id'],
  ['render_template', { template_id: 'tpl_abc123', lead_id: L, overrides: { ai_opener: 5 } }, 'invalid_request', 'overrides.ai_opener'],
  ['list_template_folders', { limit: -1 }, 'invalid_request', 'limit'],
  ['list_assets', { kind: 'podcast' }, 'invalid_request', 'kind'],
];

everyToolCovered(area, INVALID);
