import type { Browser, BrowserContext, Frame, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appFrame, haveChromium, launchChromium, showInDesk } from '../../scripts/desk/browser.js';
import { type Desk, startDesk } from '../../scripts/desk/serve.js';
import { TEST_NOW } from '../../scripts/harness/sandbox.js';
import { type Relay, startRelay } from '../../scripts/harness/relay.js';
import { type Sandbox, SANDBOX_KEYS, startSandbox } from '../../src/sandbox/index.js';

/**
 * The reply desk in a real browser (Debian's chromium through playwright-core), hosted by the
 * small AppBridge host page of npm run desk: the built server over Streamable HTTP, the app in a
 * sandboxed frame on another origin, the API a sandbox behind a relay that counts every request.
 */

if (!haveChromium()) throw new Error('chromium is not installed: apt-get install -y chromium (.ci/run does it)');

const WS = 'acme';
const ZONE = 'America/New_York';
/**
 * The README's screenshots: DESK_SCREENSHOTS=1 takes them again, into docs/images. A plain run
 * takes none (sizing the window to the whole page waited on a loaded machine for nothing the
 * tests assert, and the shots must not change the checkout).
 */
const SHOTS = process.env.DESK_SCREENSHOTS === '1';
const IMAGES = new URL('../../docs/images/', import.meta.url);
/** A reply that tries every way of running or loading something: it must show as these very characters. */
const HOSTILE = [
  '<img src=x onerror="window.pwned=1">',
  '<script>window.pwned=2</script>',
  '<a href="javascript:window.pwned=3">open</a> javascript:window.pwned=4',
  '</p></div></main></body> <b>bold?</b> https://evil.example/phish',
];

let sandbox: Sandbox;
let relay: Relay;
let desk: Desk;
let browser: Browser;
let context: BrowserContext;
let page: Page;
const consoleErrors: string[] = [];
const requests: { url: string; frame: string }[] = [];
let hostileLead: string;

/** The API as the sandbox answers it, read beside the relay (not counted). */
async function api(path: string, init: { method?: string; body?: unknown } = {}): Promise<any> {
  const res = await fetch(new URL(`/v1/workspaces/${WS}${path}`, sandbox.baseUrl), {
    method: init.method ?? 'GET',
    headers: { authorization: `Bearer ${SANDBOX_KEYS.admin}`, ...(init.body ? { 'content-type': 'application/json' } : {}) },
    body: init.body ? JSON.stringify(init.body) : undefined,
  });
  return res.json();
}

const texts = (f: Frame, selector: string) => f.$$eval(selector, (els) => els.map((e) => (e.textContent ?? '').replace(/\s+/g, ' ').trim()));
const text = async (f: Frame, selector: string) => ((await f.textContent(selector)) ?? '').replace(/\s+/g, ' ').trim();
const normal = (s: string) => s.replace(/[\s\u202f]+/g, ' ').trim();
const when = (iso: string) => normal(new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short', timeZone: ZONE }).format(new Date(iso)));
const seen = (pattern: RegExp) => relay.requests.filter((r) => pattern.test(r)).length;

async function shot(name: string, frame: Frame): Promise<void> {
  if (!SHOTS) return;
  const height = await frame.evaluate(() => (globalThis as any).document.documentElement.scrollHeight as number);
  await page.setViewportSize({ width: 1180, height: Math.min(2400, height + 140) });
  await frame.waitForFunction((h) => (globalThis as any).innerHeight >= Math.min(h, 2260), height);
  await page.screenshot({ path: new URL(`desk-${name}.png`, IMAGES).pathname });
}

async function bothThemes(name: string, frame: Frame): Promise<void> {
  await shot(`${name}-light`, frame);
  await page.evaluate(() => (globalThis as any).desk.setTheme('dark'));
  await frame.waitForSelector('html[data-theme="dark"]');
  await shot(`${name}-dark`, frame);
  await page.evaluate(() => (globalThis as any).desk.setTheme('light'));
  await frame.waitForSelector('html[data-theme="light"]');
}

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, now: TEST_NOW, logLevel: 'silent' });
  // The newest lead gets a hostile reply and a hostile name: it tops the board.
  const newest = sandbox.store.sortedLeads(WS).at(-1)!;
  hostileLead = newest.id;
  newest.first_name = '<b>Eve</b>';
  newest.last_name = '<img src=x onerror="window.pwned=5">';
  sandbox.control.simulateInboundReply(hostileLead, undefined, HOSTILE);
  relay = await startRelay(sandbox.baseUrl);
  desk = await startDesk(['--base-url', relay.url, '--workspace', WS, '--log-level', 'warn'], { REPLY_INBOX_API_KEY: SANDBOX_KEYS.admin });
  browser = await launchChromium();
  context = await browser.newContext({
    timezoneId: ZONE,
    locale: 'en-US',
    viewport: { width: 1180, height: 900 },
    permissions: ['clipboard-read', 'clipboard-write'],
  });
  page = await context.newPage();
  page.on('console', (m) => {
    if (m.type() === 'error') consoleErrors.push(m.text());
  });
  page.on('pageerror', (e) => consoleErrors.push(`pageerror: ${e.message}`));
  page.on('request', (r) => requests.push({ url: r.url(), frame: r.frame().url() }));
  await page.goto(desk.url);
  await page.evaluate(() => (globalThis as any).desk.ready);
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await desk?.close();
  await relay?.close();
  await sandbox?.close();
});

describe('the Triage board (list_leads): the page as a table, actions through the host', { timeout: 120_000 }, () => {
  it('shows one row per lead, newest first, with name and company, status and classification chips', async () => {
    const f = await showInDesk(page, 'list_leads', { limit: 20 }, 'board');
    const leads = (await api('/leads?limit=20')).data as any[];
    expect(await f.$$eval('tbody tr', (rows) => rows.map((r) => r.getAttribute('data-lead')))).toEqual(leads.map((l) => l.id));
    expect(await text(f, 'h2')).toBe('Inbox (20 leads, more on the next page)');
    const named = leads.filter((l) => l.first_name && l.last_name && l.company_name && l.body_preview);
    for (const l of named.slice(0, 5)) {
      expect(await text(f, `tr[data-lead="${l.id}"] .name`)).toBe(`${l.first_name} ${l.last_name} (${l.company_name})`);
      expect(await text(f, `tr[data-lead="${l.id}"] .chip.status`)).toBe(l.status.replace(/_/g, ' '));
      expect(await texts(f, `tr[data-lead="${l.id}"] .chip.classification`)).toEqual(
        l.classification ? [l.classification.replace(/_/g, ' ').toLowerCase()] : [],
      );
      expect(await text(f, `tr[data-lead="${l.id}"] td.date`)).toBe(when(l.last_message_at));
    }
    await bothThemes('board', f);
  });

  it('a status change reaches the sandbox; a declined confirmation sends nothing', async () => {
    const f = await appFrame(page, 'board');
    const target = ((await api('/leads?limit=20')).data as any[]).find((l) => l.status !== 'interested' && l.id !== hostileLead && l.state === 'active')!;
    const row = `tr[data-lead="${target.id}"]`;
    const statusPosts = new RegExp(`^POST /v1/workspaces/${WS}/leads/${target.id}/status$`);
    const before = seen(statusPosts);
    await f.selectOption(`${row} select`, 'interested');
    await f.click(`${row} button:text-is("Set")`);
    await f.waitForSelector(`${row} .chip.status:text-is("interested")`);
    expect(seen(statusPosts)).toBe(before + 1);
    expect(sandbox.store.leads.get(target.id)!.status).toBe('interested');
    // unsubscribed is destructive: the server asks the person through the host, who declines.
    await f.selectOption(`${row} select`, 'unsubscribed');
    await f.click(`${row} button:text-is("Set")`);
    await page.waitForSelector('dialog#ask[open]');
    expect(await page.textContent('#ask-text')).toContain('unsubscribed');
    await page.click('#ask-decline');
    await f.waitForSelector('#status:text-is("Nothing changed: the change was declined.")');
    expect(seen(statusPosts)).toBe(before + 1);
    expect(sandbox.store.leads.get(target.id)!.status).toBe('interested');
    await f.waitForSelector(`${row} .chip.status:text-is("interested")`);
  });

  it('read and star actions call mark_read and set_priority through the host', async () => {
    const f = await appFrame(page, 'board');
    const target = ((await api('/leads?limit=20')).data as any[]).find((l) => l.unread && !l.priority && l.id !== hostileLead)!;
    const row = `tr[data-lead="${target.id}"]`;
    await f.click(`${row} button:text-is("Mark read")`);
    await f.waitForSelector(`${row} button:text-is("Mark unread")`);
    expect(seen(new RegExp(`^POST /v1/workspaces/${WS}/leads/${target.id}/read$`))).toBe(1);
    await f.click(`${row} button:text-is("Star")`);
    await f.waitForSelector(`${row} button:text-is("Unstar")`);
    expect(seen(new RegExp(`^PUT /v1/workspaces/${WS}/leads/priority$`))).toBe(1);
    expect((await api(`/leads/${target.id}`)).priority).toBe(true);
  });
});

describe('the Thread view (get_conversation): oldest to newest, inbound and outbound apart, in the person zone', { timeout: 120_000 }, () => {
  it('a row of the board opens its thread; Back returns to the board', async () => {
    const f = await showInDesk(page, 'list_leads', { limit: 20 }, 'board');
    const lead = ((await api('/leads?limit=20')).data as any[]).find((l) => l.id !== hostileLead && l.first_name)!;
    await f.click(`tr[data-lead="${lead.id}"] td.who`);
    await f.waitForSelector('body[data-view="thread"]');
    const conv = (await api(`/leads/${lead.id}/messages`)).data as any[];
    const ordered = [...conv].sort((a, b) => a.sent_at.localeCompare(b.sent_at));
    expect(await f.$$eval('li.message', (els) => els.map((e) => e.className))).toEqual(ordered.map((m) => `message ${m.direction}`));
    expect((await texts(f, 'li.message time')).map(normal)).toEqual(ordered.map((m) => when(m.sent_at)));
    expect(await texts(f, 'li.message .direction')).toEqual(ordered.map((m) => (m.direction === 'inbound' ? 'Received' : 'Sent')));
    await f.click('button.back');
    await f.waitForSelector('body[data-view="board"]');
  });

  it('lists attachments by name, with the size on request; and shows in light and dark', async () => {
    const withFile = sandbox.store.sortedLeads(WS).find((l) => l.id !== hostileLead && sandbox.store.conversation(l).some((m) => m.attachments.length > 0))!;
    const f = await showInDesk(page, 'get_conversation', { lead_id: withFile.id }, 'thread');
    const files = sandbox.store.conversation(withFile).flatMap((m) => m.attachments);
    expect(await texts(f, 'li.attachment .filename')).toEqual(files.map((a) => a.filename));
    await f.click('li.attachment button');
    await f.waitForSelector('li.attachment .size:not(:empty)');
    expect(await text(f, 'li.attachment .size')).toMatch(/^\d+(\.\d)? (B|KB|MB)$/);
    await bothThemes('thread', f);
  });
});

describe('the Draft view (render_template): the lead, their latest reply, the draft; copy, mail client, re-render', { timeout: 120_000 }, () => {
  let lead: any;
  let template: any;
  beforeAll(async () => {
    template = ((await api('/templates')).data as any[]).find((t) => t.name === 'Reschedule request');
    lead = ((await api('/leads?limit=20')).data as any[]).find(
      (l) => l.id !== hostileLead && l.first_name && l.company_name && l.last_message_direction === 'received',
    );
  });

  it('shows the lead, their latest reply, and the rendered subject and body with each value marked', async () => {
    const f = await showInDesk(page, 'render_template', { lead_id: lead.id, template_id: template.id }, 'draft');
    const rendered = await api(`/templates/${template.id}/render`, { method: 'POST', body: { lead_id: lead.id } });
    await f.waitForSelector('.lead-name');
    expect(await text(f, '.lead-name')).toBe(`${lead.first_name} ${lead.last_name}`);
    expect(await text(f, '.lead-email')).toBe(lead.email);
    const inbound = ((await api(`/leads/${lead.id}/messages`)).data as any[])
      .filter((m) => m.direction === 'inbound')
      .sort((a, b) => a.sent_at.localeCompare(b.sent_at));
    expect(await text(f, '.latest-reply')).toBe(normal(inbound.at(-1).body_text));
    expect(await text(f, '[data-testid=subject]')).toBe(normal(rendered.subject));
    expect(await text(f, '[data-testid=body]')).toBe(normal(rendered.body));
    await f.waitForSelector('mark.lead[data-var="first_name"]');
    expect(await texts(f, 'mark.lead[data-var="first_name"]')).toContain(lead.first_name);
    expect(await texts(f, 'mark.unresolved')).toEqual(rendered.unresolved.map((u: string) => expect.stringContaining(u)));
    expect(await text(f, '.readiness')).toBe(rendered.ready_to_send ? 'Ready to send' : `Not ready: ${rendered.unresolved.length} unresolved`);
    await bothThemes('draft', f);
  });

  it('copies the subject and the body as text', async () => {
    const f = await appFrame(page, 'draft');
    const body = await f.$eval('[data-testid=body]', (e) => e.textContent);
    await f.click('button:text-is("Copy body")');
    await f.waitForSelector('#status:text-is("Body copied.")');
    expect(await page.evaluate(() => (globalThis as any).navigator.clipboard.readText())).toBe(body);
    const subject = await f.$eval('[data-testid=subject]', (e) => e.textContent);
    await f.click('button:text-is("Copy subject")');
    await f.waitForSelector('#status:text-is("Subject copied.")');
    expect(await page.evaluate(() => (globalThis as any).navigator.clipboard.readText())).toBe(subject);
  });

  it('opens the mail client only through the host, which asks the person', async () => {
    const f = await appFrame(page, 'draft');
    await f.click('button:text-is("Open in mail client")');
    await page.waitForSelector('dialog#ask[open]');
    const asked = (await page.textContent('#ask-text')) ?? '';
    expect(asked).toContain(`mailto:${encodeURIComponent(lead.email)}?subject=`);
    await page.click('#ask-decline');
    await f.waitForSelector('#status:text-is("The host did not open the mail client.")');
  });

  it('a changed value renders again: a real render_template call through the host, the server and the sandbox', async () => {
    const f = await appFrame(page, 'draft');
    const renders = new RegExp(`^POST /v1/workspaces/${WS}/templates/${template.id}/render$`);
    const before = seen(renders);
    await f.fill('input[data-var="first_name"]', 'Robin');
    await f.fill('input[data-var="cal_link"]', 'https://cal.example/robin');
    await f.click('button:text-is("Re-render")');
    await f.waitForSelector('#status:text-is("Rendered again with your values.")');
    expect(seen(renders)).toBe(before + 1);
    const rendered = await api(`/templates/${template.id}/render`, {
      method: 'POST',
      body: { lead_id: lead.id, overrides: { first_name: 'Robin', cal_link: 'https://cal.example/robin' } },
    });
    expect(await text(f, '[data-testid=body]')).toBe(normal(rendered.body));
    expect(await texts(f, 'mark.override[data-var="first_name"]')).toContain('Robin');
    expect(await text(f, '.readiness')).toBe(rendered.ready_to_send ? 'Ready to send' : `Not ready: ${rendered.unresolved.length} unresolved`);
  });
});

describe('outsider text stays inert: shown as the characters it is, nothing runs or loads', { timeout: 120_000 }, () => {
  it('a hostile reply and name show as literal text in the board and the thread, with no element made of them', async () => {
    const board = await showInDesk(page, 'list_leads', { limit: 20 }, 'board');
    expect(await text(board, `tr[data-lead="${hostileLead}"] .name`)).toContain('<b>Eve</b> <img src=x onerror="window.pwned=5">');
    const f = await showInDesk(page, 'get_conversation', { lead_id: hostileLead }, 'thread');
    const last = await f.$eval('li.message:last-child .body', (e) => e.textContent ?? '');
    for (const line of HOSTILE) expect(last).toContain(line);
    const dom = await f.evaluate(() => {
      const d = (globalThis as any).document;
      return {
        img: d.querySelectorAll('img').length,
        script: d.querySelectorAll('script').length,
        a: d.querySelectorAll('a').length,
        b: d.querySelectorAll('b').length,
        pwned: (globalThis as any).pwned,
      };
    });
    expect(dom).toEqual({ img: 0, script: 1, a: 0, b: 0, pwned: undefined });
    expect(await page.evaluate(() => (globalThis as any).pwned)).toBeUndefined();
    // The one address in the body is a button that asks the host; javascript: is never a link.
    expect(await texts(f, 'li.message:last-child button.inert-link')).toEqual(['https://evil.example/phish']);
    await f.click('li.message:last-child button.inert-link');
    await page.waitForSelector('dialog#ask[open]');
    expect(await page.textContent('#ask-text')).toBe('Open this address?\nhttps://evil.example/phish');
    await page.click('#ask-decline');
    await f.waitForSelector('#status:text-is("Not opened: https://evil.example/phish.")');
  });

  it('no console error and no script of the outsider ran, in any frame, in the whole session', () => {
    expect(consoleErrors).toEqual([]);
  });

  it('no request left the page: the host page and the sandbox proxy only, none from the app', () => {
    const origins = new Set(requests.map((r) => new URL(r.url).origin));
    expect([...origins].sort()).toEqual([new URL(desk.url).origin, desk.sandboxOrigin].sort());
    expect(requests.filter((r) => r.frame === 'about:srcdoc')).toEqual([]);
    expect(requests.filter((r) => !r.url.endsWith('/mcp') && !r.url.includes('/sandbox.html') && r.url !== desk.url)).toEqual([]);
  });
});
