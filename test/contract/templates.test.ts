import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestApi, readAll, startTestApi } from '../../scripts/harness/sandbox.js';

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
  'ai_variables',
  'body',
  'created_at',
  'created_by_id',
  'folder_id',
  'id',
  'is_html',
  'name',
  'object',
  'order_index',
  'scope',
  'subject',
  'variables',
  'visibility',
  'workspace',
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

describe('template: variables are the token names found in the body', () => {
  it('each template lists exactly the tokens of its body', async () => {
    for (const t of await templates()) expect(t.variables).toEqual(tokens(t.body));
  });
  it('a token that only the subject carries is not among the variables', async () => {
    const subjectOnly = (await templates()).filter((t) => tokens(t.subject).some((n) => !tokens(t.body).includes(n)));
    expect(subjectOnly.length).toBeGreaterThan(0);
    for (const t of subjectOnly) for (const n of tokens(t.subject).filter((x) => !tokens(t.body).includes(x))) expect(t.variables).not.toContain(n);
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
    const sorted = [...asc].sort((a, b) => a[0] - b[0] || (a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0));
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
      expect(Object.keys(a).sort()).toEqual([
        'body',
        'created_at',
        'created_by_id',
        'id',
        'kind',
        'object',
        'order_index',
        'title',
        'url',
        'visibility',
        'workspace',
      ]);
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

// ---------------------------------------------------------------- render

function acmeLead(pred: (l: any) => boolean) {
  const lead = [...api.sandbox.store.leads.inGroup('acme')].find(pred);
  if (!lead) throw new Error('no such seeded lead');
  return lead;
}
const fullLead = () => acmeLead((l) => l.first_name && l.last_name && l.company_name && l.title && !/[<>&"']/.test(`${l.first_name}${l.company_name}`));
const namelessLead = () => acmeLead((l) => l.first_name === null && l.last_name === null);

async function render(template: any, body: Record<string, unknown>, key: 'admin' | 'rep' | 'readonly' = 'admin') {
  return api.call('POST', `${ACME}/templates/${template.id}/render`, { key, body });
}

/** Fill a raw text the way the spec describes, independently of the sandbox. */
function fill(text: string, values: Record<string, string | null>): string {
  return text.replace(/\{\{\s*([A-Za-z0-9_.]+)\s*\}\}/g, (lit, name) => values[name] ?? lit);
}

/** cal_link as the sandbox documents it: the first active public event type's URL, else the fixed booking page. */
function expectedCalLink(): string {
  const types = [...api.sandbox.store.eventTypes.inGroup('acme')]
    .filter((e) => e.active && e.public && e.public_url)
    .sort((a, b) => a.order_index - b.order_index || (a.id < b.id ? -1 : 1));
  return types[0]?.public_url ?? 'https://book.replyinbox.example/acme';
}

describe('render: known tokens resolve from the lead, the key owner and the workspace', () => {
  it('a template of lead, owner and workspace tokens renders completely and is ready to send', async () => {
    const t = await templateNamed('Interested: book a call');
    const lead = fullLead();
    const r = await render(t, { lead_id: lead.id });
    expect(r.status).toBe(200);
    expect(Object.keys(r.body).sort()).toEqual(['body', 'is_html', 'lead_id', 'object', 'ready_to_send', 'resolved', 'subject', 'template_id', 'unresolved']);
    const values = {
      first_name: lead.first_name,
      company_name: lead.company_name,
      sender_company: 'Acme Outbound',
      sender_first_name: 'Ada',
      cal_link: expectedCalLink(),
    };
    expect(r.body).toEqual({
      object: 'rendered_template',
      template_id: t.id,
      lead_id: lead.id,
      is_html: false,
      subject: fill(t.subject, values),
      body: fill(t.body, values),
      resolved: tokens(t.subject, t.body),
      unresolved: [],
      ready_to_send: true,
    });
  });
  it("sender tokens are the key owner's: Ben's key signs as Ben", async () => {
    const t = await templateNamed('Send the one-pager');
    const r = await render(t, { lead_id: fullLead().id }, 'rep');
    expect(r.body.body).toContain('Ben Rep\nben@acme.example');
  });
  it('needs only templates:read: the read-only key renders', async () => {
    const t = await templateNamed('Generic follow-up');
    const r = await render(t, { lead_id: fullLead().id }, 'readonly');
    expect(r.status).toBe(200);
  });
});

describe('render: the retired tokens cal_link, one_pager and quarter still resolve', () => {
  it('one_pager is a doc asset URL and quarter is the current quarter', async () => {
    const t = await templateNamed('Send the one-pager');
    const lead = fullLead();
    const docs = await readAll(api, `${ACME}/assets`, { query: { kind: 'doc', order: 'asc' } });
    // The quarter of the sandbox's now, which renders it.
    const now = new Date(api.sandbox.clock.now());
    const quarter = `Q${Math.floor(now.getUTCMonth() / 3) + 1} ${now.getUTCFullYear()}`;
    const r = await render(t, { lead_id: lead.id });
    expect(r.body.body).toBe(
      fill(t.body, {
        first_name: lead.first_name,
        company_name: lead.company_name,
        one_pager: docs[0].url,
        quarter,
        sender_name: 'Ada Admin',
        sender_email: 'ada@acme.example',
      }),
    );
    expect(r.body.resolved).toEqual(expect.arrayContaining(['one_pager', 'quarter']));
    expect(r.body.ready_to_send).toBe(true);
  });
  it('cal_link resolves to a booking URL', async () => {
    const t = await templateNamed('Reschedule request');
    const r = await render(t, { lead_id: fullLead().id });
    expect(r.body.body).toContain(expectedCalLink());
    expect(r.body.resolved).toContain('cal_link');
  });
});

describe('render: unknown tokens stay literal and appear in unresolved; ready_to_send is false whenever unresolved is non-empty', () => {
  it('{{competitor_name}} and {{favorite_feature}} are left as written', async () => {
    const t = await templateNamed('Already using a competitor');
    const lead = fullLead();
    const r = await render(t, { lead_id: lead.id });
    expect(r.body.subject).toBe('Re: {{competitor_name}}');
    expect(r.body.body).toContain('switched from {{competitor_name}} once they saw {{favorite_feature}}.');
    expect(r.body.body).toContain(`Hi ${lead.first_name},`);
    expect(r.body.unresolved).toEqual(['competitor_name', 'favorite_feature']);
    expect(r.body.resolved).toEqual(['first_name', 'sender_first_name']);
    expect(r.body.ready_to_send).toBe(false);
  });
});

describe('render: empty values stay literal and appear in unresolved', () => {
  it('a lead with no name keeps {{first_name}} {{last_name}}', async () => {
    const t = await templateNamed('Generic follow-up');
    const lead = namelessLead();
    const r = await render(t, { lead_id: lead.id });
    expect(r.body.body).toContain('Hi {{first_name}} {{last_name}},');
    expect(r.body.body).toContain(lead.email);
    expect(r.body.unresolved).toEqual(['first_name', 'last_name']);
    expect(r.body.resolved).toEqual(['email', 'sender_first_name']);
    expect(r.body.ready_to_send).toBe(false);
  });
  it('an empty or blank override is an empty value too', async () => {
    const t = await templateNamed('Generic follow-up');
    for (const blank of ['', '   ']) {
      const r = await render(t, { lead_id: fullLead().id, overrides: { first_name: blank } });
      expect(r.body.body).toContain('Hi {{first_name}} ');
      expect(r.body.unresolved).toEqual(['first_name']);
      expect(r.body.ready_to_send).toBe(false);
    }
  });
});

describe('render: AI slots are filled by the caller through overrides', () => {
  it('without overrides the AI variables stay unresolved', async () => {
    const t = await templateNamed('AI opener with research');
    const r = await render(t, { lead_id: fullLead().id });
    expect(r.body.body.startsWith('{{ai_opener}}')).toBe(true);
    expect(r.body.unresolved).toEqual(['ai_opener', 'pain_point']);
    expect(r.body.ready_to_send).toBe(false);
  });
  it('with overrides for each AI variable the render is complete', async () => {
    const t = await templateNamed('AI opener with research');
    const lead = fullLead();
    const r = await render(t, { lead_id: lead.id, overrides: { ai_opener: 'Loved your post on month-end close.', pain_point: 'late reconciliations' } });
    expect(r.body.body).toBe(
      fill(t.body, {
        ai_opener: 'Loved your post on month-end close.',
        pain_point: 'late reconciliations',
        first_name: lead.first_name,
        title: lead.title,
        sender_first_name: 'Ada',
      }),
    );
    expect(r.body.resolved).toEqual(expect.arrayContaining(['ai_opener', 'pain_point']));
    expect(r.body.unresolved).toEqual([]);
    expect(r.body.ready_to_send).toBe(true);
  });
});

describe('render: overrides may replace any token', () => {
  it('a lead token and a sender token are replaced; an override of a name not in the template changes nothing', async () => {
    const t = await templateNamed('Interested: book a call');
    const lead = fullLead();
    const r = await render(t, { lead_id: lead.id, overrides: { first_name: 'Sam', sender_first_name: 'A. Admin', not_in_template: 'x' } });
    expect(r.body.body).toContain('Hi Sam,');
    expect(r.body.body.endsWith('Best,\nA. Admin')).toBe(true);
    expect(r.body.resolved).not.toContain('not_in_template');
    expect(r.body.unresolved).toEqual([]);
  });
  it('overrides that are not strings are 400 invalid_request naming the entry', async () => {
    const t = await templateNamed('Interested: book a call');
    const r = await render(t, { lead_id: fullLead().id, overrides: { first_name: 7 } });
    expect(r.status).toBe(400);
    expect(r.body.error).toMatchObject({ code: 'invalid_request', param: 'overrides.first_name' });
  });
});

describe('render: resolve_ai_variables=true is refused with code unprocessable (HTTP 422 per the catalog)', () => {
  it('true is 422 unprocessable naming resolve_ai_variables', async () => {
    const t = await templateNamed('AI opener with research');
    const r = await render(t, { lead_id: fullLead().id, resolve_ai_variables: true });
    expect(r.status).toBe(422);
    expect(r.body.error).toMatchObject({ code: 'unprocessable', param: 'resolve_ai_variables' });
  });
  it('false is accepted', async () => {
    const t = await templateNamed('AI opener with research');
    const r = await render(t, { lead_id: fullLead().id, resolve_ai_variables: false });
    expect(r.status).toBe(200);
  });
});

describe('render: is_html is carried from the template', () => {
  it('an HTML template renders with is_html true; filled values are escaped in the HTML body, not in the subject', async () => {
    const t = await templateNamed('HTML meeting confirmation');
    expect(t.is_html).toBe(true);
    const r = await render(t, { lead_id: fullLead().id, overrides: { first_name: '<b>Sam</b>', company_name: 'Smith & Jones' } });
    expect(r.body.is_html).toBe(true);
    expect(r.body.body).toContain('<p>Hi &lt;b&gt;Sam&lt;/b&gt;,</p>');
    expect(r.body.subject).toBe('Confirmed: Smith & Jones x Acme Outbound');
  });
  it('a plain-text template renders with is_html false', async () => {
    const r = await render(await templateNamed('Generic follow-up'), { lead_id: fullLead().id });
    expect(r.body.is_html).toBe(false);
  });
});

describe('render: the lead must exist in the workspace (404 not_found, param lead_id)', () => {
  it('an unknown lead and a lead of another workspace are 404 naming lead_id', async () => {
    const t = await templateNamed('Generic follow-up');
    const globexLead = [...api.sandbox.store.leads.inGroup('globex')][0]!;
    for (const lead_id of ['lead_doesnotexist', globexLead.id]) {
      const r = await render(t, { lead_id });
      expect(r.status).toBe(404);
      expect(r.body.error).toMatchObject({ code: 'not_found', param: 'lead_id' });
    }
  });
  it('a lead_id of another kind is 400 invalid_id; a missing lead_id or an unknown field is 400 invalid_request', async () => {
    const t = await templateNamed('Generic follow-up');
    const a = await render(t, { lead_id: 'usr_ada' });
    expect(a.status).toBe(400);
    expect(a.body.error).toMatchObject({ code: 'invalid_id', param: 'lead_id' });
    const b = await render(t, {});
    expect(b.status).toBe(400);
    expect(b.body.error).toMatchObject({ code: 'invalid_request', param: 'lead_id' });
    const c = await render(t, { lead_id: fullLead().id, send: true });
    expect(c.status).toBe(400);
    expect(c.body.error).toMatchObject({ code: 'invalid_request', param: 'send' });
  });
});

describe('render: a template of another workspace is 404 unless it is global', () => {
  it("globex's workspace template is 404 from acme; its global template renders with acme's lead and acme as sender", async () => {
    const globex = await templates(GLOBEX, 'globex');
    const own = globex.find((t) => t.scope === 'workspace')!;
    const lead = fullLead();
    const r = await render(own, { lead_id: lead.id });
    expect(r.status).toBe(404);
    expect(r.body.error).toMatchObject({ code: 'not_found', param: 'template_id' });
    const shared = globex.find((t) => t.scope === 'global')!;
    const ok = await render(shared, { lead_id: lead.id });
    expect(ok.status).toBe(200);
    expect(ok.body.subject).toBe('Hello from Acme Outbound');
    expect(ok.body.body).toContain(`Is ${lead.company_name} the right team`);
  });
  it("another person's private template is 404", async () => {
    const bens = (await templates(ACME, 'rep')).find((t) => t.visibility === 'private')!;
    const r = await render(bens, { lead_id: fullLead().id });
    expect(r.status).toBe(404);
    expect(r.body.error).toMatchObject({ code: 'not_found', param: 'template_id' });
  });
});

describe('render: a computation; the service never sends email and render writes nothing', () => {
  it('the store is unchanged by renders and the answer has no effects', async () => {
    const s = api.sandbox.store;
    const lead = fullLead();
    const snapshot = () =>
      JSON.stringify({
        sizes: [s.leads.size, s.replies.size, s.tasks.size, s.notes.size, s.meetings.size, s.templates.size, s.assets.size],
        lead: JSON.stringify(lead, (_k, v) => (v instanceof Map ? [...v] : v instanceof Set ? [...v] : v)),
        template: JSON.stringify([...s.templates.inGroup('acme')]),
      });
    const before = snapshot();
    for (const name of ['Interested: book a call', 'AI opener with research', 'HTML meeting confirmation']) {
      const r = await render(await templateNamed(name), { lead_id: lead.id, overrides: { ai_opener: 'x' } });
      expect(r.status).toBe(200);
      expect(r.body).not.toHaveProperty('effects');
    }
    expect(snapshot()).toBe(before);
  });
});
