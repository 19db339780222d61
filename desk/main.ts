import type { LeadRef } from './actions.js';
import { boardView } from './board.js';
import { el, replace } from './dom.js';
import { draftView } from './draft.js';
import { Host, type Json, failure } from './host.js';
import { AppLink, type ToolResult, applyHostLook } from './link.js';
import { say } from './parts.js';
import { warmDates } from './text.js';
import { threadView } from './thread.js';

/**
 * The reply desk: one flow, inbox → thread → reply, for three tools. The host hands it a tool's
 * input and result (list_leads opens the inbox, get_conversation a thread, render_template a
 * draft); from there the person moves on through the host's tool calls, and Back returns to
 * the view they came from, as they left it.
 */
performance.mark('desk:script');
const app = new AppLink({ name: 'reply-desk', version: '1.0.0' });
let input: Json = {};
const host = new Host(app, () => (typeof input.workspace === 'string' ? input.workspace : undefined));
const main = document.getElementById('desk')!;

type ViewName = 'draft' | 'thread' | 'board' | 'error' | 'loading' | 'cancelled';
/** The views the person came through, newest last, each kept as it was left (page, row, choices). */
const trail: { name: ViewName; title: string; view: HTMLElement }[] = [];
let current: { name: ViewName; title: string; view: HTMLElement } | null = null;

function viewOf(result: Json): ViewName | null {
  const tool = app.hostContext.toolInfo?.tool?.name;
  if (tool === 'render_template' || result.object === 'rendered_template') return 'draft';
  if (tool === 'get_conversation' || Array.isArray(result.messages)) return 'thread';
  if (tool === 'list_leads' || (result.object === 'list' && Array.isArray(result.data))) return 'board';
  return null;
}

function show(name: ViewName, view: HTMLElement, title: string): void {
  const prev = trail.at(-1);
  const back = prev ? el('button', { type: 'button', class: 'back', click: goBack }, `← ${prev.title}`) : null;
  current = { name, title, view };
  replace(main, back, view);
  document.body.dataset.view = name;
  main.removeAttribute('aria-busy');
  // The first view on screen, for npm run bench: when each stage before it ended (performance marks desk:*).
  if (document.body.dataset.firstRenderMs === undefined && name !== 'loading') {
    performance.mark('desk:shown');
    document.body.dataset.stages = JSON.stringify(Object.fromEntries(performance.getEntriesByType('mark').map((m) => [m.name, Math.round(m.startTime)])));
    document.body.dataset.firstRenderMs = String(Math.round(performance.now()));
  }
  const focus = view.querySelector<HTMLElement>('li.selected') ?? back ?? view.querySelector<HTMLElement>('h2, button');
  focus?.focus({ preventScroll: true });
}

/** Leave the current view for another, keeping the current one to come back to. */
async function forward(title: string, loading: string, next: () => Promise<{ name: ViewName; view: HTMLElement; title: string }>): Promise<void> {
  if (current && current.name !== 'loading' && current.name !== 'error') trail.push({ ...current, title });
  show('loading', skeleton(loading), loading);
  try {
    const v = await next();
    show(v.name, v.view, v.title);
  } catch (err) {
    show('error', el('p', { class: 'error', role: 'alert' }, (err as Error).message), 'error');
  }
}

function goBack(): void {
  const prev = trail.pop();
  if (prev) show(prev.name, prev.view, prev.title);
}

function skeleton(text: string): HTMLElement {
  return el(
    'div',
    { class: 'view skeleton', 'aria-busy': 'true' },
    el('p', { class: 'muted' }, text),
    el('div', { class: 'bar' }),
    el('div', { class: 'bar short' }),
    el('div', { class: 'bar' }),
  );
}

function openThread(ref: LeadRef): void {
  void forward('Inbox', `Opening the conversation with ${ref.who}…`, async () => {
    const c = await host.call('get_conversation', { lead_id: ref.lead.id });
    void host.tell(`opened the conversation with ${ref.who} (${ref.lead.id})`);
    return { name: 'thread', view: threadView(host, c, ref, openDraft(c)), title: ref.who };
  });
}

/** From a thread: render the chosen template for its lead through the host, and show the draft. */
function openDraft(conversation: Json) {
  return async (ref: LeadRef, templateId: string, templateName: string): Promise<void> => {
    await forward(`Conversation with ${ref.who}`, `Drafting a reply to ${ref.who}…`, async () => {
      const rendered = await host.call('render_template', { lead_id: ref.lead.id, template_id: templateId });
      void host.tell(`drafted a reply to ${ref.who} (${ref.lead.id}) from the template "${templateName}" (${templateId}); nothing is sent`);
      const input = { lead_id: String(ref.lead.id), template_id: templateId };
      return { name: 'draft', view: draftView(host, input, rendered, { lead: ref.lead, conversation }), title: 'the draft' };
    });
  };
}

function render(result: ToolResult): void {
  trail.length = 0;
  if (result.isError) {
    show('error', el('p', { class: 'error', role: 'alert' }, failure(result).message), 'error');
    return;
  }
  const data = (result.structuredContent ?? {}) as Json;
  const name = viewOf(data);
  if (name === 'draft') {
    const lead_id = String(input.lead_id ?? data.lead_id);
    const template_id = String(input.template_id ?? data.template_id);
    show('draft', draftView(host, { lead_id, template_id, overrides: input.overrides }, data), 'the draft');
  } else if (name === 'thread') {
    show('thread', threadView(host, data, { lead: { id: data.lead_id ?? input.lead_id } }, openDraft(data)), 'the conversation');
  } else if (name === 'board') show('board', boardView(host, data, input, openThread), 'Inbox');
  else show('error', el('p', { class: 'error', role: 'alert' }, 'The desk does not show this tool.'), 'error');
}

app.on.toolinput = (p) => {
  input = (p.arguments ?? {}) as Json;
};
app.on.toolresult = (r) => {
  performance.mark('desk:result');
  render(r);
};
// The person (or the host) stopped the tool before it answered: say so instead of waiting forever.
app.on.toolcancelled = (p) => {
  show(
    'cancelled',
    el('p', { class: 'notice', role: 'status' }, `The request was stopped before it answered${p.reason ? ` (${p.reason})` : ''}: nothing to show.`),
    'cancelled',
  );
  say('');
};
app.on.hostcontext = applyHostLook;

performance.mark('desk:connect');
// ui/initialize is on its way once connect() is called: the wait for the host does the date set-up.
const connected = app.connect();
warmDates();
performance.mark('desk:dates');
await connected;
performance.mark('desk:connected');
applyHostLook(app.hostContext);
