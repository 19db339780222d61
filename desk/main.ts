import { App, type McpUiHostContext, applyDocumentTheme, applyHostStyleVariables } from '@modelcontextprotocol/ext-apps';
import { boardView } from './board.js';
import { el, replace } from './dom.js';
import { draftView } from './draft.js';
import { Host, type Json, failure } from './host.js';
import { threadView } from './thread.js';

/**
 * The reply desk: one app for three tools. The host hands it the tool's input and result;
 * it shows the Draft (render_template), the Thread (get_conversation) or the Triage board
 * (list_leads), and calls tools back through the host when the person acts.
 */
performance.mark('desk:script');
const app = new App({ name: 'reply-desk', version: '1.0.0' }, {}, { autoResize: true });
let input: Json = {};
const host = new Host(app, () => (typeof input.workspace === 'string' ? input.workspace : undefined));
const main = document.getElementById('desk')!;
/** The views the person came through (board → thread), for the Back button. */
const trail: { title: string; view: HTMLElement }[] = [];

type ViewName = 'draft' | 'thread' | 'board';

function viewOf(result: Json): ViewName | null {
  const tool = app.getHostContext()?.toolInfo?.tool?.name;
  if (tool === 'render_template' || result.object === 'rendered_template') return 'draft';
  if (tool === 'get_conversation' || Array.isArray(result.messages)) return 'thread';
  if (tool === 'list_leads' || (result.object === 'list' && Array.isArray(result.data))) return 'board';
  return null;
}

function show(name: ViewName | 'error', view: HTMLElement, title: string): void {
  const back = trail.length > 0 ? el('button', { type: 'button', class: 'back', click: goBack }, `← Back to ${trail[trail.length - 1]!.title}`) : null;
  replace(main, back, view);
  document.body.dataset.view = name;
  document.body.dataset.title = title;
  // The first view on screen, for npm run bench: milliseconds since this frame began loading,
  // and when each stage before it ended (performance marks desk:*).
  if (document.body.dataset.firstRenderMs === undefined) {
    performance.mark('desk:shown');
    document.body.dataset.stages = JSON.stringify(Object.fromEntries(performance.getEntriesByType('mark').map((m) => [m.name, Math.round(m.startTime)])));
    document.body.dataset.firstRenderMs = String(Math.round(performance.now()));
  }
  (back ?? view.querySelector<HTMLElement>('h2, button, [tabindex]'))?.focus({ preventScroll: true });
}

function goBack(): void {
  const prev = trail.pop();
  if (prev) show(prev.view.classList.contains('board') ? 'board' : 'thread', prev.view, prev.title);
}

async function openThread(leadId: string, who: string): Promise<void> {
  const current = main.querySelector<HTMLElement>('.view');
  if (current) trail.push({ title: 'the inbox', view: current });
  replace(main, el('p', { class: 'muted' }, `Opening the conversation with ${who}…`));
  try {
    const c = await host.call('get_conversation', { lead_id: leadId });
    show('thread', threadView(host, c), who);
  } catch (err) {
    show('error', el('p', { class: 'error', role: 'alert' }, `The conversation did not open: ${(err as Error).message}`), 'error');
  }
}

function render(result: { isError?: boolean; structuredContent?: unknown; content?: { type: string; text?: string }[] }): void {
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
  } else if (name === 'thread') show('thread', threadView(host, data), 'the conversation');
  else if (name === 'board')
    show(
      'board',
      boardView(host, data, (id, who) => void openThread(id, who)),
      'the inbox',
    );
  else show('error', el('p', { class: 'error', role: 'alert' }, 'The desk does not show this tool.'), 'error');
}

function theme(c: McpUiHostContext | undefined): void {
  if (c?.theme) applyDocumentTheme(c.theme);
  if (c?.styles?.variables) applyHostStyleVariables(c.styles.variables);
}

app.ontoolinput = (p) => {
  input = (p.arguments ?? {}) as Json;
};
app.ontoolresult = (r) => {
  performance.mark('desk:result');
  render(r);
};
app.onhostcontextchanged = (c) => theme(c);
app.onteardown = async () => ({});

performance.mark('desk:connect');
await app.connect();
performance.mark('desk:connected');
theme(app.getHostContext());
