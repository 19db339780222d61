/**
 * The app's side of MCP Apps (the io.modelcontextprotocol/ui extension, protocol 2026-01-26):
 * JSON-RPC 2.0 over postMessage with the host frame. Written here instead of bundling ext-apps'
 * App, whose SDK and zod schemas were nine tenths of the desk's bytes and most of its start: the
 * desk needs only the handful of methods below, and the host validates what it receives anyway.
 */

// biome-ignore lint/suspicious/noExplicitAny: messages are read as the protocol's JSON
type Json = Record<string, any>;

export const PROTOCOL_VERSION = '2026-01-26';

/** What the host says about itself in its answer to ui/initialize, updated by host-context-changed. */
export interface HostContext {
  theme?: 'light' | 'dark';
  styles?: { variables?: Record<string, string | undefined> };
  locale?: string;
  timeZone?: string;
  toolInfo?: { tool?: { name?: string } };
}

export interface ToolResult {
  isError?: boolean;
  structuredContent?: Json;
  content?: { type: string; text?: string; resource?: Json }[];
}

export interface LinkHandlers {
  toolinput?: (p: { arguments?: Json }) => void;
  toolresult?: (r: ToolResult) => void;
  toolcancelled?: (p: { reason?: string }) => void;
  hostcontext?: (c: HostContext) => void;
}

export class AppLink {
  hostCapabilities: Json = {};
  hostContext: HostContext = {};
  readonly on: LinkHandlers = {};
  private next = 1;
  private readonly pending = new Map<number, { resolve: (v: Json) => void; reject: (e: Error) => void }>();

  constructor(private readonly appInfo: { name: string; version: string }) {}

  /** Listen, initialize, say initialized, and keep the host told of the view's height. */
  async connect(): Promise<void> {
    window.addEventListener('message', (e) => this.receive(e));
    const r = await this.request('ui/initialize', { appInfo: this.appInfo, appCapabilities: {}, protocolVersion: PROTOCOL_VERSION });
    this.hostCapabilities = (r.hostCapabilities ?? {}) as Json;
    this.hostContext = (r.hostContext ?? {}) as HostContext;
    this.notify('ui/notifications/initialized', {});
    this.followSize();
  }

  request(method: string, params: Json): Promise<Json> {
    const id = this.next++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      window.parent.postMessage({ jsonrpc: '2.0', id, method, params }, '*');
    });
  }

  notify(method: string, params: Json): void {
    window.parent.postMessage({ jsonrpc: '2.0', method, params }, '*');
  }

  callTool(name: string, args: Json): Promise<ToolResult> {
    return this.request('tools/call', { name, arguments: args }) as Promise<ToolResult>;
  }

  private receive(e: MessageEvent): void {
    const m = e.data as Json | null;
    if (e.source !== window.parent || !m || m.jsonrpc !== '2.0') return;
    if (typeof m.method !== 'string') {
      const waiting = this.pending.get(m.id);
      if (!waiting) return;
      this.pending.delete(m.id);
      if (m.error) waiting.reject(new Error(String(m.error.message ?? 'the host refused')));
      else waiting.resolve((m.result ?? {}) as Json);
      return;
    }
    if (m.id !== undefined) {
      // The host's requests: teardown and ping are answered at once; anything else is not ours.
      const known = m.method === 'ui/resource-teardown' || m.method === 'ping';
      window.parent.postMessage(
        known ? { jsonrpc: '2.0', id: m.id, result: {} } : { jsonrpc: '2.0', id: m.id, error: { code: -32601, message: `${m.method} is not handled` } },
        '*',
      );
      return;
    }
    const p = (m.params ?? {}) as Json;
    if (m.method === 'ui/notifications/tool-input') this.on.toolinput?.(p);
    else if (m.method === 'ui/notifications/tool-result') this.on.toolresult?.(p as ToolResult);
    else if (m.method === 'ui/notifications/tool-cancelled') this.on.toolcancelled?.(p);
    else if (m.method === 'ui/notifications/host-context-changed') {
      this.hostContext = { ...this.hostContext, ...p };
      this.on.hostcontext?.(this.hostContext);
    }
  }

  /** The view grows with its content (never a viewport height): its height goes to the host whenever it changes. */
  private followSize(): void {
    let queued = false;
    let last = { width: 0, height: 0 };
    const measure = () => {
      if (queued) return;
      queued = true;
      requestAnimationFrame(() => {
        queued = false;
        const root = document.documentElement;
        const was = root.style.height;
        root.style.height = 'max-content';
        const height = Math.ceil(root.getBoundingClientRect().height);
        root.style.height = was;
        const width = Math.ceil(window.innerWidth);
        if (width === last.width && height === last.height) return;
        last = { width, height };
        this.notify('ui/notifications/size-changed', last);
      });
    };
    measure();
    const watch = new ResizeObserver(measure);
    watch.observe(document.documentElement);
    watch.observe(document.body);
  }
}

/** The host's theme and style variables on the document (data-theme for the CSS, colour scheme for the controls). */
export function applyHostLook(c: HostContext): void {
  const root = document.documentElement;
  if (c.theme) {
    root.dataset.theme = c.theme;
    root.style.colorScheme = c.theme;
  }
  for (const [name, value] of Object.entries(c.styles?.variables ?? {})) if (value !== undefined && name.startsWith('--')) root.style.setProperty(name, value);
}
