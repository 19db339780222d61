import { Client, StreamableHTTPClientTransport, type Tool } from '@modelcontextprotocol/client';
import { AppBridge, type McpUiHostContext, PostMessageTransport, getToolUiResourceUri } from '@modelcontextprotocol/ext-apps/app-bridge';

/**
 * A small MCP Apps host, for `npm run desk` and the browser tests: the reference host side
 * (ext-apps' AppBridge) over a real MCP client. The page talks to the server at /mcp (its own
 * origin; the local desk server relays to the MCP server), reads the tool's ui:// resource,
 * and shows it in the sandbox proxy on another origin, passing the tool's input and result.
 */

interface DeskConfig {
  /** The sandbox proxy page, on an origin other than this page's. */
  sandbox: string;
}
declare global {
  interface Window {
    __DESK__: DeskConfig;
    desk: DeskApi;
  }
}

/** What the tests and a person's console can drive. */
interface DeskApi {
  /** Show a tool's app; `cancelled`: the host stops the call before its result, as when a person cancels it. */
  show(tool: string, args: Record<string, unknown>, opts?: { cancelled?: boolean }): Promise<void>;
  setTheme(theme: 'light' | 'dark'): Promise<void>;
  /** Every question the host put to the person (links to open, files to save, writes to confirm), in order. */
  asked: { kind: 'link' | 'file' | 'write'; text: string; answer: 'accept' | 'decline' }[];
  /** Every model-context update the app sent (ui/update-model-context), in order: what the model would read. */
  modelContext: string[];
  ready: Promise<void>;
}

const APP_MIME = 'text/html;profile=mcp-app';
const config = window.__DESK__;
const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;

const THEMES: Record<'light' | 'dark', Record<string, string>> = {
  light: {
    '--color-background-primary': '#ffffff',
    '--color-background-secondary': '#f4f4f6',
    '--color-text-primary': '#1b1b1f',
    '--color-text-secondary': '#5b5b66',
    '--color-border-primary': '#d9d9e0',
    '--font-sans': 'system-ui, sans-serif',
  },
  dark: {
    '--color-background-primary': '#1c1c1e',
    '--color-background-secondary': '#2a2a2e',
    '--color-text-primary': '#ececf1',
    '--color-text-secondary': '#a9a9b6',
    '--color-border-primary': '#3d3d44',
    '--font-sans': 'system-ui, sans-serif',
  },
};
let theme: 'light' | 'dark' = 'light';

function hostContext(tool?: Tool): McpUiHostContext {
  return {
    theme,
    styles: { variables: THEMES[theme] as McpUiHostContext['styles'] extends { variables?: infer V } ? V : never },
    displayMode: 'inline',
    availableDisplayModes: ['inline'],
    platform: 'web',
    locale: navigator.language,
    timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone,
    ...(tool ? { toolInfo: { tool } } : {}),
  };
}

const asked: DeskApi['asked'] = [];
/** Ask the person in the host's own dialog; the app never sees it. */
function ask(kind: 'link' | 'file' | 'write', text: string): Promise<boolean> {
  const dialog = $<HTMLDialogElement>('ask');
  $('ask-text').textContent = text;
  dialog.showModal();
  return new Promise((resolve) => {
    const answer = (ok: boolean) => () => {
      dialog.close();
      asked.push({ kind, text, answer: ok ? 'accept' : 'decline' });
      $('ask-accept').onclick = null;
      $('ask-decline').onclick = null;
      resolve(ok);
    };
    $('ask-accept').onclick = answer(true);
    $('ask-decline').onclick = answer(false);
  });
}

const client = new Client(
  { name: 'reply-desk-host', version: '1.0.0' },
  { capabilities: { extensions: { 'io.modelcontextprotocol/ui': { mimeTypes: [APP_MIME] } }, elicitation: { form: {} } } },
);
// The server's confirmation of a consequential write (elicitation), answered by the person here.
client.setRequestHandler('elicitation/create', async (req) => {
  const ok = await ask('write', req.params.message);
  return ok ? { action: 'accept', content: {} } : { action: 'decline' };
});

let tools: Tool[] = [];
const modelContext: string[] = [];

const html = new Map<string, Promise<string>>();
let current: { bridge: AppBridge; iframe: HTMLIFrameElement; tool: Tool } | null = null;

async function appHtml(uri: string): Promise<string> {
  let p = html.get(uri);
  if (!p) {
    p = client.readResource({ uri }).then((r) => {
      const c = r.contents[0] as { text?: string; mimeType?: string } | undefined;
      if (!c?.text || c.mimeType !== APP_MIME) throw new Error(`${uri} is not an MCP App`);
      return c.text;
    });
    html.set(uri, p);
  }
  return p;
}

async function teardown(): Promise<void> {
  if (!current) return;
  const { bridge, iframe } = current;
  current = null;
  await bridge.teardownResource({}).catch(() => undefined);
  await bridge.close().catch(() => undefined);
  iframe.remove();
}

async function show(name: string, args: Record<string, unknown>, opts: { cancelled?: boolean } = {}): Promise<void> {
  const tool = tools.find((t) => t.name === name);
  const uri = tool ? getToolUiResourceUri(tool) : undefined;
  if (!tool || !uri) throw new Error(`${name} has no app`);
  $('host-status').textContent = `Calling ${name}…`;
  const [result, appText] = await Promise.all([client.callTool({ name, arguments: args }), appHtml(uri)]);
  await teardown();
  const iframe = document.createElement('iframe');
  iframe.title = `Reply desk: ${tool.title ?? name}`;
  iframe.setAttribute('sandbox', 'allow-scripts allow-same-origin allow-forms');
  iframe.setAttribute('allow', 'clipboard-write');
  iframe.src = `${config.sandbox}?host=${encodeURIComponent(location.origin)}`;
  const bridge = new AppBridge(
    client,
    { name: 'reply-desk-host', version: '1.0.0' },
    { openLinks: {}, serverTools: {}, serverResources: {}, logging: {}, updateModelContext: { text: {} }, downloadFile: {} },
    { hostContext: hostContext(tool) },
  );
  bridge.onsandboxready = () => void bridge.sendSandboxResourceReady({ html: appText, sandbox: 'allow-scripts allow-forms' });
  bridge.oninitialized = () => {
    void bridge.sendToolInput({ arguments: args });
    if (opts.cancelled) void bridge.sendToolCancelled({ reason: 'the person stopped it' });
    else void bridge.sendToolResult(result as Parameters<AppBridge['sendToolResult']>[0]);
  };
  bridge.onsizechange = ({ height }) => {
    if (height) iframe.style.height = `${Math.ceil(height) + 2}px`;
  };
  bridge.onupdatemodelcontext = async ({ content }) => {
    modelContext.push((content ?? []).map((c) => (c.type === 'text' ? c.text : '')).join('\n'));
    $('model-context').textContent = modelContext.at(-1) ?? '';
    return {};
  };
  bridge.ondownloadfile = async ({ contents }) => {
    const file = contents[0];
    const name = decodeURIComponent((file?.type === 'resource' ? file.resource.uri.split('/').pop() : file?.name) ?? '');
    if (!file || !(await ask('file', `Save this file?\n${name}`))) return { isError: true };
    if (file.type === 'resource' && 'blob' in file.resource) {
      const a = Object.assign(document.createElement('a'), {
        href: `data:${file.resource.mimeType ?? 'application/octet-stream'};base64,${file.resource.blob}`,
        download: name ?? 'file',
      });
      a.click();
    }
    return {};
  };
  bridge.onopenlink = async ({ url }) => {
    if (!(await ask('link', `Open this address?\n${url}`))) return { isError: true };
    window.open(url, '_blank', 'noopener');
    return {};
  };
  $('frame').append(iframe);
  current = { bridge, iframe, tool };
  await bridge.connect(new PostMessageTransport(iframe.contentWindow!, iframe.contentWindow!));
  $('host-status').textContent = '';
}

async function setTheme(next: 'light' | 'dark'): Promise<void> {
  theme = next;
  document.documentElement.dataset.theme = next;
  $('theme').setAttribute('aria-pressed', String(next === 'dark'));
  $('theme').textContent = next === 'dark' ? 'Light theme' : 'Dark theme';
  if (current) await current.bridge.sendHostContextChange({ theme, styles: hostContext().styles });
}

const fail = (err: unknown) => {
  $('host-status').textContent = `Failed: ${(err as Error).message}`;
};

async function start(): Promise<void> {
  await client.connect(new StreamableHTTPClientTransport(new URL('/mcp', location.origin)));
  tools = (await client.listTools()).tools;
  $('show-board').onclick = () => void show('list_leads', { limit: 20 }).catch(fail);
  $('theme').onclick = () => void setTheme(theme === 'dark' ? 'light' : 'dark');
  // The flow starts at the inbox, as an agent's list_leads would open it; the rest happens in the app.
  await show('list_leads', { limit: 20 });
}

window.desk = {
  show,
  setTheme,
  asked,
  modelContext,
  ready: start(),
};
window.desk.ready.catch(fail);
