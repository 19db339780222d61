import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestApi, readAll, startTestApi } from '../helpers/sandbox.js';

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi({ rateLimits: false });
});
afterAll(() => api.close());

const ACME = '/v1/workspaces/acme';
const GLOBEX = '/v1/workspaces/globex';

/** Token names as the spec defines them, parsed here independently of the sandbox. */
function tokens(...texts: (string | null)[]): string[] {
  const out: string[] = [];
  for (const t of texts) for (const m of (t ?? '').matchAll(/\{\{\s*([A-Za-z0-9_.]+)\s*\}\}/g)) if (!out.includes(m[1]!)) out.push(m[1]!);
  return out;
}

const TEMPLATE_KEYS = [
  'ai_variables', 'body', 'created_at', 'created_by_id', 'folder_id', 'id', 'is_html', 'name', 'object', 'order_index',
  'scope', 'subject', 'variables', 'visibility', 'workspace',
].sort();

async function templates(path = ACME, key: 'admin' | 'rep' | 'globex' = 'admin', query: Record<string, string> = {}) {
  return readAll(api, `${path}/templates`, { key, query });
}
async function templateNamed(name: string, path = ACME) {
  const t = (await templates(path)).find((x) => x.name === name);
  if (!t) throw new Error(`no template ${name}`);
  return t;
}

describe('template: every field of the resource is present', () => {
  it('each listed template has exactly the spec fields, with a tpl_ id', async () => {
    const list = await templates();
    expect(list.length).toBeGreaterThan(5);
    for (const t of list) {
      expect(Object.keys(t).sort()).toEqual(TEMPLATE_KEYS);
      expect(t.object).toBe('template');
      expect(t.id).toMatch(/^tpl_/);
      expect(typeof t.is_html).toBe('boolean');
      expect(['private', 'workspace', 'global']).toContain(t.visibility);
    }
  });
  it('get_template returns the same object as the list', async () => {
    const t = (await templates())[0];
    const r = await api.get(`${ACME}/templates/${t.id}`);
    expect(r.status).toBe(200);
    expect(r.body).toEqual(t);
  });
});

describe('template: variables are the token names found in the body (and subject)', () => {
  it('each template lists exactly the tokens of its subject and body', async () => {
    for (const t of await templates()) expect(t.variables).toEqual(tokens(t.subject, t.body));
  });
  it('the retired tokens cal_link, one_pager, quarter appear among the variables', async () => {
    const all = (await templates()).flatMap((t) => t.variables);
    for (const retired of ['cal_link', 'one_pager', 'quarter']) expect(all).toContain(retired);
  });
});

describe('template: ai_variables are {name, read_website}; the free-text instructions are hidden', () => {
  it('no instruction text leaves the sandbox', async () => {
    const withAi = (await templates()).filter((t) => t.ai_variables.length > 0);
    expect(withAi.length).toBeGreaterThan(0);
    for (const t of withAi) {
      for (const v of t.ai_variables) {
        expect(Object.keys(v).sort()).toEqual(['name', 'read_website']);
        expect(typeof v.read_website).toBe('boolean');
        expect(t.variables).toContain(v.name);
      }
      const rec = api.sandbox.store.templates.get(t.id)!;
      const raw = JSON.stringify((await api.get(`${ACME}/templates/${t.id}`)).body);
      for (const v of rec.ai_variables) expect(raw).not.toContain(v.instructions);
      expect(raw).not.toContain('instructions');
    }
  });
});

describe("template: a workspace's list includes global templates shared from other workspaces", () => {
  it('a global template of globex (scope global, workspace null) is listed in acme and in globex', async () => {
    const acme = await templates();
    const shared = acme.filter((t) => t.scope === 'global');
    expect(shared.length).toBeGreaterThan(0);
    for (const t of shared) {
      expect(t.workspace).toBeNull();
      expect(t.visibility).toBe('global');
    }
    const globexIds = (await templates(GLOBEX, 'globex')).map((t) => t.id);
    for (const t of shared) expect(globexIds).toContain(t.id);
    expect(shared.some((t) => api.sandbox.store.templates.get(t.id)!.owner_workspace === 'globex')).toBe(true);
  });
  it("globex's workspace-scope templates are not listed in acme and are 404 there", async () => {
    const own = (await templates(GLOBEX, 'globex')).filter((t) => t.scope === 'workspace');
    expect(own.length).toBeGreaterThan(0);
    const acmeIds = (await templates()).map((t) => t.id);
    for (const t of own) {
      expect(acmeIds).not.toContain(t.id);
      const r = await api.get(`${ACME}/templates/${t.id}`);
      expect(r.status).toBe(404);
      expect(r.body.error).toMatchObject({ code: 'not_found', param: 'template_id' });
    }
  });
  it('a global template reads from acme by id', async () => {
    const shared = (await templates()).find((t) => t.scope === 'global');
    expect((await api.get(`${ACME}/templates/${shared.id}`)).status).toBe(200);
  });
});

describe('template: a private template is visible only to its creator', () => {
  it("Ada sees her private template and not Ben's; Ben sees his and not Ada's", async () => {
    const ada = (await templates()).filter((t) => t.visibility === 'private');
    const ben = (await templates(ACME, 'rep')).filter((t) => t.visibility === 'private');
    expect(ada.length).toBeGreaterThan(0);
    expect(ben.length).toBeGreaterThan(0);
    for (const t of ada) expect(t.created_by_id).toBe('usr_ada');
    for (const t of ben) expect(t.created_by_id).toBe('usr_ben');
  });
  it("another person's private template is 404 on get", async () => {
    const ben = (await templates(ACME, 'rep')).find((t) => t.visibility === 'private');
    const r = await api.get(`${ACME}/templates/${ben.id}`);
    expect(r.status).toBe(404);
    expect(r.body.error).toMatchObject({ code: 'not_found', param: 'template_id' });
  });
});

describe('template: unknown ids are 404 not_found; wrong-kind ids are 400 invalid_id', () => {
  it('an unknown tpl_ id', async () => {
    const r = await api.get(`${ACME}/templates/tpl_doesnotexist`);
    expect(r.status).toBe(404);
    expect(r.body.error).toMatchObject({ code: 'not_found', param: 'template_id' });
  });
  it('an id of another kind', async () => {
    const r = await api.get(`${ACME}/templates/seq_abc`);
    expect(r.status).toBe(400);
    expect(r.body.error).toMatchObject({ code: 'invalid_id', param: 'template_id' });
  });
});

describe('templates list: filters folder_id and visibility, applied before paging', () => {
  it('folder_id returns exactly the templates of that folder', async () => {
    const all = await templates();
    const folder = all.find((t) => t.folder_id)!.folder_id;
    const filtered = await readAll(api, `${ACME}/templates`, { query: { folder_id: folder, limit: 1 } });
    expect(filtered.map((t) => t.id)).toEqual(all.filter((t) => t.folder_id === folder).map((t) => t.id));
  });
  it.each([['global'], ['workspace'], ['private']])('visibility=%s returns exactly those templates', async (v) => {
    const all = await templates();
    const filtered = await templates(ACME, 'admin', { visibility: v });
    expect(filtered.length).toBeGreaterThan(0);
    expect(filtered.map((t) => t.id)).toEqual(all.filter((t) => t.visibility === v).map((t) => t.id));
  });
  it('a folder of another workspace or an unknown folder is 404 not_found naming folder_id', async () => {
    const globexFolder = [...api.sandbox.store.templateFolders.inGroup('globex')][0]!.id;
    for (const folder_id of [globexFolder, 'tfd_unknown']) {
      const r = await api.get(`${ACME}/templates`, { query: { folder_id } });
      expect(r.status).toBe(404);
      expect(r.body.error).toMatchObject({ code: 'not_found', param: 'folder_id' });
    }
  });
  it('a folder_id of the wrong kind is 400 invalid_id; an unknown visibility is 400 unsupported_filter', async () => {
    const a = await api.get(`${ACME}/templates`, { query: { folder_id: 'tpl_abc' } });
    expect(a.status).toBe(400);
    expect(a.body.error).toMatchObject({ code: 'invalid_id', param: 'folder_id' });
    const b = await api.get(`${ACME}/templates`, { query: { visibility: 'team' } });
    expect(b.status).toBe(400);
    expect(b.body.error).toMatchObject({ code: 'unsupported_filter', param: 'visibility' });
  });
});

describe('Pagination: templates, assets and folders sort by (order_index, id); order flips it, default desc', () => {
  it.each([['templates'], ['assets'], ['template_folders']])('%s', async (list) => {
    const desc = (await readAll(api, `${ACME}/${list}`)).map((x) => [x.order_index, x.id]);
    const asc = (await readAll(api, `${ACME}/${list}`, { query: { order: 'asc' } })).map((x) => [x.order_index, x.id]);
    const sorted = [...asc].sort((a, b) => (a[0] - b[0]) || (a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0));
    expect(asc).toEqual(sorted);
    expect(desc).toEqual([...asc].reverse());
  });
  it('a page of one at a time walks the whole template list once', async () => {
    const whole = (await templates()).map((t) => t.id);
    const walked = (await readAll(api, `${ACME}/templates`, { query: { limit: 1 } })).map((t) => t.id);
    expect(walked).toEqual(whole);
  });
  it.each([['templates'], ['assets'], ['template_folders']])('%s: a foreign cursor is 400 invalid_cursor', async (list) => {
    const other = (await api.get(`${ACME}/members`, { query: { limit: 1 } })).body.next_cursor;
    const r = await api.get(`${ACME}/${list}`, { query: { cursor: other } });
    expect(r.status).toBe(400);
    expect(r.body.error).toMatchObject({ code: 'invalid_cursor', param: 'cursor' });
  });
});

describe('template_folder list: each folder with id, name, order_index and template_count (shape our choice)', () => {
  it('has the chosen fields; template_count equals the templates listed with that folder_id', async () => {
    const folders = await readAll(api, `${ACME}/template_folders`);
    expect(folders.length).toBeGreaterThan(1);
    for (const f of folders) {
      expect(Object.keys(f).sort()).toEqual(['created_at', 'id', 'name', 'object', 'order_index', 'template_count', 'workspace']);
      expect(f.object).toBe('template_folder');
      expect(f.id).toMatch(/^tfd_/);
      expect(f.workspace).toBe('acme');
      const inFolder = await templates(ACME, 'admin', { folder_id: f.id });
      expect(f.template_count).toBe(inFolder.length);
    }
    expect(folders.some((f) => f.template_count === 0)).toBe(true);
  });
  it("template_count counts only what the caller can see (Ben does not count Ada's private template)", async () => {
    const ada = await readAll(api, `${ACME}/template_folders`);
    const ben = await readAll(api, `${ACME}/template_folders`, { key: 'rep' });
    const adaPrivate = (await templates()).find((t) => t.visibility === 'private' && t.folder_id)!;
    const a = ada.find((f) => f.id === adaPrivate.folder_id)!;
    const b = ben.find((f) => f.id === adaPrivate.folder_id)!;
    expect(a.template_count).toBe(b.template_count + 1);
  });
});

describe('asset: kind video, doc, link or text; url for the first three, body for text', () => {
  it('every kind is present with url/body as the spec says', async () => {
    const assets = await readAll(api, `${ACME}/assets`);
    expect(new Set(assets.map((a) => a.kind))).toEqual(new Set(['video', 'doc', 'link', 'text']));
    for (const a of assets) {
      expect(Object.keys(a).sort()).toEqual(
        ['body', 'created_at', 'created_by_id', 'id', 'kind', 'object', 'order_index', 'title', 'url', 'visibility', 'workspace'],
      );
      expect(a.id).toMatch(/^ast_/);
      expect(['private', 'workspace']).toContain(a.visibility);
      if (a.kind === 'text') {
        expect(a.url).toBeNull();
        expect(typeof a.body).toBe('string');
      } else {
        expect(a.url).toMatch(/^https:\/\//);
        expect(a.body).toBeNull();
      }
    }
  });
  it.each([['video'], ['doc'], ['link'], ['text']])('kind=%s returns only that kind', async (kind) => {
    const all = await readAll(api, `${ACME}/assets`);
    const filtered = await readAll(api, `${ACME}/assets`, { query: { kind } });
    expect(filtered.map((a) => a.id)).toEqual(all.filter((a) => a.kind === kind).map((a) => a.id));
  });
  it('an unknown kind is 400 unsupported_filter naming kind', async () => {
    const r = await api.get(`${ACME}/assets`, { query: { kind: 'audio' } });
    expect(r.status).toBe(400);
    expect(r.body.error).toMatchObject({ code: 'unsupported_filter', param: 'kind' });
  });
});

describe('asset: a private asset is returned only to its creator', () => {
  it("Ada's key does not see Ben's private asset, and Ben's key does not see Ada's", async () => {
    const ada = await readAll(api, `${ACME}/assets`);
    const ben = await readAll(api, `${ACME}/assets`, { key: 'rep' });
    const privateOf = (list: any[]) => list.filter((a) => a.visibility === 'private');
    expect(privateOf(ada).length).toBeGreaterThan(0);
    expect(privateOf(ben).length).toBeGreaterThan(0);
    for (const a of privateOf(ada)) expect(a.created_by_id).toBe('usr_ada');
    for (const a of privateOf(ben)) expect(a.created_by_id).toBe('usr_ben');
    const shared = (list: any[]) => list.filter((a) => a.visibility === 'workspace').map((a) => a.id);
    expect(shared(ada)).toEqual(shared(ben));
  });
});
