import type { Browser, BrowserContext, Frame, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appFrame, haveChromium, launchChromium, showInDesk } from '../../scripts/desk/browser.js';
import { type Desk, startDesk } from '../../scripts/desk/serve.js';
import { TEST_NOW } from '../../scripts/harness/sandbox.js';
import { type Relay, startRelay } from '../../scripts/harness/relay.js';
import { SPECIAL_EMAILS } from '../../src/sandbox/seed/leads.js';
import { type Sandbox, SANDBOX_KEYS, startSandbox } from '../../src/sandbox/index.js';

/**
 * The reply desk in a real browser (Debian's chromium through playwright-core), hosted by the
 * small AppBridge host page of npm run desk: the built server over Streamable HTTP, the app in a
 * sandboxed frame on another origin, the API a sandbox behind a relay that counts every request.
 * Used as a person uses it: the inbox first, a thread, a reply; light and dark, 1280 and 420 px.
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
const WIDE = 1280;
const NARROW = 420;

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
const leadByEmail = (email: string) => [...sandbox.store.leads.all()].find((l) => l.email === email)!;
const page1 = async () => (await api('/leads?limit=20')).data as any[];
const told = () => page.evaluate(() => (globalThis as any).desk.modelContext as string[]);
const row = (id: string) => `li.row[data-lead="${id}"]`;

/** The inbox, as a fresh app frame. */
const board = () => showInDesk(page, 'list_leads', { limit: 20 }, 'board');

/** Select a row of the board (one click), then open it (Open, on the selected row only). */
async function openFromBoard(f: Frame, id: string): Promise<void> {
  await f.click(`${row(id)} .line1`);
  await f.click(`${row(id)}.selected .row-actions button:text-is("Open")`);
  await f.waitForSelector('body[data-view="thread"]');
  await f.waitForSelector('.template-select option[value^="tpl_"]', { state: 'attached' });
}

/**
 * The reply render_template gives for a lead who wrote in, by the API's words: the newest inbound
 * email answered ("Re: " once and its subject), its sender as To, and the sender of the thread's
 * last outbound email as From. Read from the sandbox, beside the server.
 */
async function replyOf(leadId: string): Promise<{ subject: string; to: { email: string; name?: string }; from: { email: string; name?: string } }> {
  const newest = ((await api(`/leads/${leadId}/messages`)).data as any[]).sort((a, b) => b.sent_at.localeCompare(a.sent_at));
  const inbound = newest.find((m) => m.direction === 'inbound' && m.from_email);
  const subject = String(inbound.subject ?? newest.find((m) => m.subject)?.subject);
  const topic = (t: string) => t.replace(/^\s*(re\s*:\s*)+/i, '').trim();
  const outbound = newest.filter((m) => m.direction === 'outbound' && m.from_email);
  const last = outbound.find((m) => m.subject && topic(m.subject) === topic(subject)) ?? outbound[0];
  return {
    subject: `Re: ${topic(subject)}`,
    to: { email: inbound.from_email, name: inbound.from_name },
    from: { email: last.from_email, name: last.from_name },
  };
}

async function shot(name: string, frame: Frame, width = WIDE): Promise<void> {
  if (!SHOTS) return;
  const height = await frame.evaluate(() => (globalThis as any).document.documentElement.scrollHeight as number);
  await page.setViewportSize({ width, height: Math.min(2400, height + 140) });
  await frame.waitForFunction((h) => (globalThis as any).innerHeight >= Math.min(h, 2260), height);
  await page.screenshot({ path: new URL(`desk-${name}.png`, IMAGES).pathname });
  await page.setViewportSize({ width, height: 900 });
}

async function bothThemes(name: string, frame: Frame, width = WIDE): Promise<void> {
  await shot(`${name}-light`, frame, width);
  await page.evaluate(() => (globalThis as any).desk.setTheme('dark'));
  await frame.waitForSelector('html[data-theme="dark"]');
  await shot(`${name}-dark`, frame, width);
  await page.evaluate(() => (globalThis as any).desk.setTheme('light'));
  await frame.waitForSelector('html[data-theme="light"]');
}

/** Nothing cut off, nothing scrolling sideways: the page fits the frame's width, and so does every control on screen. */
async function fitsWidth(f: Frame): Promise<{ overflow: number; cut: string[] }> {
  return f.evaluate(() => {
    const d = (globalThis as any).document;
    const width = d.documentElement.clientWidth;
    const cut = [...d.querySelectorAll('button, select, input, .chip, h2')]
      .filter((e: any) => e.getClientRects().length > 0 && (e.getBoundingClientRect().right > width + 0.5 || e.getBoundingClientRect().left < -0.5))
      .map((e: any) => e.textContent || e.getAttribute('aria-label'));
    return { overflow: d.documentElement.scrollWidth - width, cut };
  });
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
    viewport: { width: WIDE, height: 900 },
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

describe('the inbox (list_leads) opens first: compact rows, paging, keys, one set of actions', { timeout: 120_000 }, () => {
  it('the page opens at the inbox without a click, newest first, with names, chips in words and dates', async () => {
    const f = await appFrame(page, 'board', 20_000);
    const leads = await page1();
    expect(await f.$$eval('li.row', (rows) => rows.map((r) => r.getAttribute('data-lead')))).toEqual(leads.map((l) => l.id));
    expect(await text(f, '.count')).toBe('20 leads · page 1, more after');
    const named = leads.filter((l) => l.first_name && l.last_name && l.company_name && l.id !== hostileLead);
    for (const l of named.slice(0, 5)) {
      expect(await text(f, `${row(l.id)} .name`)).toBe(`${l.first_name} ${l.last_name}`);
      expect(await text(f, `${row(l.id)} .company`)).toBe(l.company_name);
      expect(await f.getAttribute(`${row(l.id)} time.date`, 'title')).toBe(when(l.last_message_at));
    }
    // The page's own toolbar names no lead or template: what the desk shows is the view's alone.
    expect(await page.$$('header select')).toEqual([]);
    await bothThemes('board', f);
  });

  it('statuses, classifications and states read as words; a lead without a name reads as their email', async () => {
    const f = await appFrame(page, 'board');
    const dnc = leadByEmail(SPECIAL_EMAILS.dnc);
    expect(await texts(f, `${row(dnc.id)} .chip`)).toEqual(['Unsubscribed', 'Do not contact']);
    const booked = leadByEmail(SPECIAL_EMAILS.booked);
    expect(await texts(f, `${row(booked.id)} .chip.state`)).toEqual(['Meeting booked']);
    const anonymous = leadByEmail(SPECIAL_EMAILS.anonymous);
    await f.waitForSelector(`${row(anonymous.id)} .name:text-is("${SPECIAL_EMAILS.anonymous}")`);
    expect(await f.$$eval('li.row .name', (els) => els.filter((e) => /^lead_/.test(e.textContent ?? '')).length)).toBe(0);
  });

  it('one set of actions, on the selected row only: the board is an inbox, not a grid of controls', async () => {
    const f = await appFrame(page, 'board');
    expect(await f.$$eval('li.row', (r) => r.length)).toBe(20);
    expect(await f.$$eval('select', (s) => s.length)).toBe(1);
    expect(await f.$$eval('.row-actions', (s) => s.length)).toBe(1);
    expect(await f.$$eval('li.row.selected', (r) => r.map((e) => e.getAttribute('data-lead')))).toEqual([hostileLead]);
    // Unread and starred at a glance.
    const leads = await page1();
    const unread = leads.filter((l) => l.unread).map((l) => l.id);
    expect(await f.$$eval('li.row.unread', (r) => r.map((e) => e.getAttribute('data-lead')))).toEqual(unread);
    const starred = leads.filter((l) => l.priority).map((l) => l.id);
    expect(await f.$$eval('li.row:has(.line1 .star)', (r) => r.map((e) => e.getAttribute('data-lead')))).toEqual(starred);
  });

  it('keys: j/k move, s stars, r marks read, Enter opens; the keys are listed in the view', async () => {
    const f = await board();
    expect(await text(f, '.keys')).toBe('Keys: j/k or ↓/↑ move · Enter opens · r read/unread · s star');
    const leads = await page1();
    const target = leads[2];
    await f.focus('li.row.selected');
    await f.press('li.row.selected', 'j');
    await f.press('li.row.selected', 'j');
    await f.waitForSelector(`${row(target.id)}.selected`);
    await f.press('li.row.selected', 'k');
    await f.waitForSelector(`${row(leads[1].id)}.selected`);
    await f.press('li.row.selected', 'j');
    await f.waitForSelector(`${row(target.id)}.selected`);
    const stars = seen(/^PUT \/v1\/workspaces\/acme\/leads\/priority$/);
    await f.press('li.row.selected', 's');
    await f.waitForSelector(`${row(target.id)} .row-actions button:text-is("${target.priority ? 'Star' : 'Unstar'}")`);
    expect(seen(/^PUT \/v1\/workspaces\/acme\/leads\/priority$/)).toBe(stars + 1);
    expect((await api(`/leads/${target.id}`)).priority ?? false).toBe(!target.priority);
    await f.press('li.row.selected', 'Enter');
    await f.waitForSelector('body[data-view="thread"]');
    expect(await text(f, '.lead-header h2')).toBe(`${target.first_name} ${target.last_name}`);
  });

  it('Next page reads the next page through the host with the cursor; Back from a thread returns to that page', async () => {
    const f = await board();
    const first = await api('/leads?limit=20');
    const second = (await api(`/leads?limit=20&cursor=${encodeURIComponent(first.next_cursor)}`)).data as any[];
    // The first page's own read (naming the row without a name) is done before counting.
    await f.waitForSelector(`${row(leadByEmail(SPECIAL_EMAILS.anonymous).id)} .name:text-is("${SPECIAL_EMAILS.anonymous}")`);
    const lists = seen(/^GET \/v1\/workspaces\/acme\/leads\?/);
    await f.click('button:text-is("Next page →")');
    await f.waitForSelector('.count:text-is("20 leads · page 2, more after")');
    expect(await f.$$eval('li.row', (rows) => rows.map((r) => r.getAttribute('data-lead')))).toEqual(second.map((l) => l.id));
    expect(seen(/^GET \/v1\/workspaces\/acme\/leads\?/)).toBe(lists + 1);
    // Every row of a page the desk read itself is named (fields asked for), none by id.
    expect(await f.$$eval('li.row .name', (els) => els.filter((e) => /^lead_/.test(e.textContent ?? '')).length)).toBe(0);
    await openFromBoard(f, second[3].id);
    await f.click('button.back:text-is("← Inbox")');
    await f.waitForSelector('body[data-view="board"]');
    expect(await text(f, '.count')).toBe('20 leads · page 2, more after');
    expect(await f.$$eval('li.row.selected', (r) => r.map((e) => e.getAttribute('data-lead')))).toEqual([second[3].id]);
    await f.click('button:text-is("← Newer")');
    await f.waitForSelector('.count:text-is("20 leads · page 1, more after")');
    expect(seen(/^GET \/v1\/workspaces\/acme\/leads\?/)).toBe(lists + 1);
  });
});

describe('truthful controls: the status shown is the status the lead has, and a declined change shows it still', { timeout: 120_000 }, () => {
  it('a status set_status does not take (legacy_hold) shows as itself, and Set waits for a choice', async () => {
    const f = await board();
    const lars = leadByEmail(SPECIAL_EMAILS.legacyStatus);
    expect(await texts(f, `${row(lars.id)} .chip.status`)).toEqual(['Legacy hold']);
    await f.click(`${row(lars.id)} .line1`);
    const select = `${row(lars.id)} select.status-select`;
    expect(await f.$eval(select, (s: any) => [s.value, s.selectedOptions[0].textContent])).toEqual(['legacy_hold', 'Legacy hold']);
    expect(await f.isDisabled(`${row(lars.id)} button.set-status`)).toBe(true);
    await f.selectOption(select, 'interested');
    expect(await f.isDisabled(`${row(lars.id)} button.set-status`)).toBe(false);
    await f.selectOption(select, 'legacy_hold');
    expect(await f.isDisabled(`${row(lars.id)} button.set-status`)).toBe(true);
    expect(sandbox.store.leads.get(lars.id)!.status).toBe('legacy_hold');
  });

  it('a status change reaches the sandbox and the model hears it; a declined one sends nothing and the control shows the status kept', async () => {
    const f = await board();
    const labels: Record<string, string> = { untagged: 'Untagged', not_interested: 'Not interested', automated: 'Automated' };
    const target = (await page1()).find((l) => labels[l.status] && l.id !== hostileLead && l.state === 'active' && l.first_name)!;
    const was = labels[target.status];
    const r = row(target.id);
    const who = `${target.first_name} ${target.last_name}`;
    const statusPosts = new RegExp(`^POST /v1/workspaces/${WS}/leads/${target.id}/status$`);
    const before = seen(statusPosts);
    await f.click(`${r} .line1`);
    await f.selectOption(`${r} select`, 'interested');
    await f.click(`${r} button.set-status`);
    await f.waitForSelector(`${r} .chip.status:text-is("Interested")`);
    expect(seen(statusPosts)).toBe(before + 1);
    expect(sandbox.store.leads.get(target.id)!.status).toBe('interested');
    await f.waitForSelector(`#status:text-is("Set the status of ${who} from ${was} to Interested.")`);
    expect((await told()).at(-1)).toContain(`- set the status of ${who} (${target.id}) from ${was} to Interested`);
    // unsubscribed is destructive: the server asks the person through the host, who declines.
    await f.selectOption(`${r} select`, 'unsubscribed');
    await f.click(`${r} button.set-status`);
    await page.waitForSelector('dialog#ask[open]');
    expect(await page.textContent('#ask-text')).toContain('unsubscribed');
    await page.click('#ask-decline');
    await f.waitForSelector('#status:text-is("Nothing changed: the change was declined.")');
    expect(seen(statusPosts)).toBe(before + 1);
    expect(sandbox.store.leads.get(target.id)!.status).toBe('interested');
    await f.waitForSelector(`${r} select.reverted`);
    expect(await f.$eval(`${r} select`, (s: any) => s.value)).toBe('interested');
    expect(await text(f, `${r} .chip.status`)).toBe('Interested');
    expect((await told()).at(-1)).toContain(`- tried to set status for ${who} (${target.id}); nothing changed: the change was declined`);
  });

  it('read and star call mark_read and set_priority through the host, and the model is told each', async () => {
    const f = await board();
    const target = (await page1()).find((l) => l.unread && !l.priority && l.id !== hostileLead && l.first_name)!;
    const who = `${target.first_name} ${target.last_name}`;
    const r = row(target.id);
    await f.click(`${r} .line1`);
    await f.click(`${r} button:text-is("Mark read")`);
    await f.waitForSelector(`${r} button:text-is("Mark unread")`);
    expect(await f.$$eval(`${r}.unread`, (x) => x.length)).toBe(0);
    expect(seen(new RegExp(`^POST /v1/workspaces/${WS}/leads/${target.id}/read$`))).toBe(1);
    expect((await told()).at(-1)).toContain(`- marked ${who} (${target.id}) read`);
    await f.click(`${r} button:text-is("Star")`);
    await f.waitForSelector(`${r} button:text-is("Unstar")`);
    expect((await api(`/leads/${target.id}`)).priority).toBe(true);
    expect((await told()).at(-1)).toContain(`- starred ${who} (${target.id})`);
  });
});

describe('the thread: who the lead is, their messages, and the next steps', { timeout: 120_000 }, () => {
  it('a row opens its thread under a header naming the lead with status, classification and state, and the next steps', async () => {
    const f = await board();
    const lead = (await page1()).find((l) => l.id !== hostileLead && l.first_name && l.company_name && l.classification)!;
    await openFromBoard(f, lead.id);
    const full = await api(`/leads/${lead.id}`);
    expect(await text(f, '.lead-header h2')).toBe(`${lead.first_name} ${lead.last_name}`);
    await f.waitForSelector(`.lead-header .lead-email:text-is("${full.email}")`);
    expect(await text(f, '.lead-header .lead-meta')).toContain(full.company_name);
    expect(await f.$$eval('.lead-header .chip', (els) => els.map((e) => e.className.split(' ')[1]))).toEqual([
      'status',
      'classification',
      ...(full.state === 'active' ? [] : ['state']),
    ]);
    for (const b of ['Draft reply', 'Set status', full.unread ? 'Mark read' : 'Mark unread', full.priority ? 'Unstar' : 'Star'])
      expect(await f.$$eval(`.lead-header button:text-is("${b}")`, (x) => x.length)).toBe(1);
    const conv = (await api(`/leads/${lead.id}/messages`)).data as any[];
    const ordered = [...conv].sort((a, b) => a.sent_at.localeCompare(b.sent_at));
    expect(await f.$$eval('li.message', (els) => els.map((e) => e.className))).toEqual(ordered.map((m) => `message ${m.direction}`));
    expect((await texts(f, 'li.message time')).map(normal)).toEqual(ordered.map((m) => when(m.sent_at)));
    expect(await texts(f, 'li.message .direction')).toEqual(ordered.map((m) => (m.direction === 'inbound' ? 'Received' : 'Sent')));
    expect((await told()).at(-1)).toContain(`- opened the conversation with ${lead.first_name} ${lead.last_name} (${lead.id})`);
    await f.click('button.back');
    await f.waitForSelector('body[data-view="board"]');
  });

  it('attachments show by name; Download reads the file through the host, shows its size and hands it to the host to save', async () => {
    const frida = leadByEmail(SPECIAL_EMAILS.attachments);
    const f = await showInDesk(page, 'get_conversation', { lead_id: frida.id }, 'thread');
    const files = sandbox.store.conversation(frida).flatMap((m) => m.attachments);
    expect(await texts(f, 'li.attachment .filename')).toEqual(files.map((a) => a.filename));
    await f.waitForSelector('.lead-header h2:text-is("Frida Fileson")');
    await f.click('li.attachment:first-child button:text-is("Download")');
    await page.waitForSelector('dialog#ask[open]');
    expect(await page.textContent('#ask-text')).toBe(`Save this file?\n${files[0]!.filename}`);
    await page.click('#ask-decline');
    await f.waitForSelector(`#status:text-is("${files[0]!.filename}: your host did not save it.")`);
    expect(await text(f, 'li.attachment:first-child .size')).toMatch(/^\d+(\.\d)? (B|KB|MB)$/);
    await bothThemes('thread', f);
  });
});

describe('the reply: drafted from the thread for that lead, in their thread, with what "ready" checked', { timeout: 120_000 }, () => {
  let lead: any;
  let template: any;
  beforeAll(async () => {
    template = ((await api('/templates')).data as any[]).find((t) => t.name === 'Reschedule request');
    lead = (await page1()).find(
      (l) =>
        l.id !== hostileLead &&
        l.first_name &&
        l.company_name &&
        l.last_message_direction === 'received' &&
        !['OUT_OF_OFFICE', 'AUTOMATED'].includes(l.classification),
    );
  });

  it('Draft reply in a thread opened from the inbox drafts for that lead, not another', async () => {
    const f = await board();
    const other = (await page1()).find((l) => l.id !== hostileLead && l.id !== lead.id && l.first_name)!;
    await openFromBoard(f, other.id);
    await f.click('button.back');
    await openFromBoard(f, lead.id);
    const renders = new RegExp(`^POST /v1/workspaces/${WS}/templates/${template.id}/render$`);
    const before = seen(renders);
    await f.selectOption('.template-select', template.id);
    await f.click('button:text-is("Draft reply")');
    await f.waitForSelector('body[data-view="draft"]');
    expect(seen(renders)).toBe(before + 1);
    expect(await text(f, '.lead-name')).toBe(`${lead.first_name} ${lead.last_name}`);
    expect((await told()).at(-1)).toContain(`- drafted a reply to ${lead.first_name} ${lead.last_name} (${lead.id}) from the template "Reschedule request"`);
    await f.click(`button.back:text-is("← Conversation with ${lead.first_name} ${lead.last_name}")`);
    await f.waitForSelector('body[data-view="thread"]');
    expect(await text(f, '.lead-header h2')).toBe(`${lead.first_name} ${lead.last_name}`);
  });

  it("answers in the lead's thread: To, Send as, the reply's subject, their latest email quoted, and each value marked", async () => {
    const f = await showInDesk(page, 'render_template', { lead_id: lead.id, template_id: template.id }, 'draft');
    const reply = await replyOf(lead.id);
    const rendered = await api(`/templates/${template.id}/render`, { method: 'POST', body: { lead_id: lead.id } });
    await f.waitForSelector('.lead-name');
    expect(await text(f, '.lead-name')).toBe(`${lead.first_name} ${lead.last_name}`);
    expect(await text(f, '.envelope .to')).toBe(`${reply.to.name} <${reply.to.email}>`);
    expect(await text(f, '.envelope .from')).toBe(`${reply.from.name} <${reply.from.email}>`);
    expect(await text(f, '[data-testid=subject]')).toBe(reply.subject);
    const inbound = ((await api(`/leads/${lead.id}/messages`)).data as any[])
      .filter((m) => m.direction === 'inbound')
      .sort((a, b) => a.sent_at.localeCompare(b.sent_at));
    await f.waitForSelector('.latest-reply');
    expect(await text(f, '.latest-reply')).toBe(normal(inbound.at(-1).body_text));
    expect(await text(f, '[data-testid=body]')).toBe(normal(rendered.body));
    await f.waitForSelector('mark.lead[data-var="first_name"]');
    expect(await texts(f, 'mark.lead[data-var="first_name"]')).toContain(lead.first_name);
    expect(await text(f, '.readiness')).toBe('Ready to send');
    expect(await texts(f, '.checks li')).toEqual(['✓ Every template value is filled.', `✓ Answers their latest email, in its thread (${reply.subject}).`]);
    await bothThemes('draft', f);
  });

  it('values are named in words, with where each came from beside it', async () => {
    const f = await appFrame(page, 'draft');
    await f.waitForSelector('label[for="var-first_name"]');
    expect(await text(f, 'label[for="var-first_name"]')).toBe('Their first name first_name');
    expect(await text(f, '.field:has(#var-first_name) .origin')).toBe("from the lead's and sender's records");
    expect(await text(f, 'label[for="var-sender_first_name"]')).toBe('Your first name sender_first_name');
  });

  it('copies the body as text, and the model hears it', async () => {
    const f = await appFrame(page, 'draft');
    const body = await f.$eval('[data-testid=body]', (e) => e.textContent);
    await f.click('button:text-is("Copy body")');
    await f.waitForSelector('#status:text-is("Body copied.")');
    expect(await page.evaluate(() => (globalThis as any).navigator.clipboard.readText())).toBe(body);
    expect((await told()).at(-1)).toContain(`- copied the body of the draft to ${lead.first_name} ${lead.last_name} (${lead.id})`);
    const subject = await f.$eval('[data-testid=subject]', (e) => e.textContent);
    await f.click('button:text-is("Copy subject")');
    await f.waitForSelector('#status:text-is("Subject copied.")');
    expect(await page.evaluate(() => (globalThis as any).navigator.clipboard.readText())).toBe(subject);
  });

  it('opens the mail client only through the host, which asks the person, addressed as the reply', async () => {
    const f = await appFrame(page, 'draft');
    const reply = await replyOf(lead.id);
    await f.click('button:text-is("Open in mail client")');
    await page.waitForSelector('dialog#ask[open]');
    const asked = (await page.textContent('#ask-text')) ?? '';
    expect(asked).toContain(`mailto:${encodeURIComponent(reply.to.email)}?subject=${encodeURIComponent(reply.subject)}&body=`);
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
    expect(await text(f, '.field:has(#var-first_name) .origin')).toBe('your value');
  });

  it('"ready" is not said of a reply to an out-of-office email, though every value is filled', async () => {
    const otto = leadByEmail(SPECIAL_EMAILS.unknownClassification);
    const f = await showInDesk(page, 'render_template', { lead_id: otto.id, template_id: template.id }, 'draft');
    await f.waitForSelector('.checks li:has-text("Out of office")');
    expect(await text(f, '.readiness')).toBe('Check before sending');
    expect(await texts(f, '.checks li.warn')).toContain('! Their latest email is classified Out of office: nobody may read this until they are back.');
  });
});

describe('narrow first: a chat column of 420 px (and 360), light and dark', { timeout: 120_000 }, () => {
  afterAll(() => page.setViewportSize({ width: WIDE, height: 900 }));

  for (const theme of ['light', 'dark'] as const)
    it(`at ${NARROW} px in ${theme}: inbox, thread and draft fit, nothing scrolls sideways, the actions show`, async () => {
      await page.setViewportSize({ width: NARROW, height: 900 });
      await page.evaluate((t) => (globalThis as any).desk.setTheme(t), theme);
      const f = await board();
      await f.waitForSelector(`html[data-theme="${theme}"]`);
      expect(await fitsWidth(f)).toEqual({ overflow: 0, cut: [] });
      expect(await f.$$eval('li.row.selected .row-actions button, li.row.selected .row-actions select', (els) => els.length)).toBe(5);
      // The shots once, from the light run: bothThemes takes light, then dark.
      if (theme === 'light') await bothThemes('narrow-board', f, NARROW);
      const lead = (await page1()).find((l) => l.id !== hostileLead && l.first_name && l.last_message_direction === 'received')!;
      await openFromBoard(f, lead.id);
      expect(await fitsWidth(f)).toEqual({ overflow: 0, cut: [] });
      await f.selectOption('.template-select', { label: 'Reschedule request' });
      await f.click('button:text-is("Draft reply")');
      await f.waitForSelector('body[data-view="draft"]');
      await f.waitForSelector('.editor .field');
      expect(await fitsWidth(f)).toEqual({ overflow: 0, cut: [] });
      await page.evaluate(() => (globalThis as any).desk.setTheme('light'));
    });

  it('at 360 px the inbox still fits', async () => {
    await page.setViewportSize({ width: 360, height: 900 });
    const f = await board();
    expect(await fitsWidth(f)).toEqual({ overflow: 0, cut: [] });
  });
});

describe('the states around the result: a skeleton before it, a cancelled call said', { timeout: 120_000 }, () => {
  it('a tool the person cancels shows that it was stopped, not a skeleton forever', async () => {
    const f = await showInDesk(page, 'list_leads', { limit: 20 }, 'cancelled', 30_000, { cancelled: true });
    expect(await text(f, 'main')).toBe('The request was stopped before it answered (the person stopped it): nothing to show.');
  });
});

describe('outsider text stays inert: shown as the characters it is, nothing runs or loads', { timeout: 120_000 }, () => {
  it('a hostile reply and name show as literal text in the board and the thread, with no element made of them', async () => {
    const board = await showInDesk(page, 'list_leads', { limit: 20 }, 'board');
    expect(await text(board, `li.row[data-lead="${hostileLead}"] .name`)).toContain('<b>Eve</b> <img src=x onerror="window.pwned=5">');
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
