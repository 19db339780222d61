import type { AppLink } from './link.js';
import { unfence } from './text.js';

/** A tool answered with an error: its code (declined, invalid_request…) and its message. */
export class ToolFailure extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

// biome-ignore lint/suspicious/noExplicitAny: tool answers are read as the server's JSON
export type Json = Record<string, any>;

/** The actions the model hears about at once: the newest, enough for a session at the desk. */
const MAX_TOLD = 12;

/**
 * Everything the desk asks for goes through its host: tool calls (the server's confirmation
 * rules apply as they do for an agent) and opening links (the host asks the person). The desk
 * holds no key and sends no request of its own.
 */
export class Host {
  constructor(
    readonly app: AppLink,
    private readonly workspace: () => string | undefined,
  ) {}

  async call(name: string, args: Json): Promise<Json> {
    return (await this.callWhole(name, args)).structuredContent as Json;
  }

  /** The whole result, content blocks included (download_attachment's file is one). */
  async callWhole(name: string, args: Json): Promise<{ structuredContent: Json; content: { type: string; resource?: Json }[] }> {
    const ws = this.workspace();
    const r = await this.app.callTool(name, { ...(ws ? { workspace: ws } : {}), ...args });
    if (r.isError) throw failure(r);
    return { structuredContent: (r.structuredContent ?? {}) as Json, content: (r.content ?? []) as { type: string; resource?: Json }[] };
  }

  /** Hand a file to the host, which asks the person where (or whether) to save it. */
  async download(resource: Json): Promise<boolean> {
    if (!this.app.hostCapabilities.downloadFile) return false;
    const r = await this.app.request('ui/download-file', { contents: [{ type: 'resource', resource }] }).catch(() => ({ isError: true }));
    return !r.isError;
  }

  async open(url: string): Promise<boolean> {
    const r = await this.app.request('ui/open-link', { url }).catch(() => ({ isError: true }));
    return !r.isError;
  }

  /**
   * Tell the model what the person did. A host keeps only the latest context, so every line of
   * this session goes each time, newest last; a host without the capability is told nothing.
   */
  async tell(line: string): Promise<void> {
    this.told.push(line);
    if (this.told.length > MAX_TOLD) this.told.shift();
    if (!this.app.hostCapabilities.updateModelContext) return;
    const text = `In the reply desk, the person:\n${this.told.map((l) => `- ${l}`).join('\n')}`;
    await this.app.request('ui/update-model-context', { content: [{ type: 'text', text }] }).catch(() => undefined);
  }

  private readonly told: string[] = [];

  zone(): { timeZone?: string; locale?: string } {
    const c = this.app.hostContext;
    return { timeZone: c.timeZone, locale: c.locale };
  }
}

/** The tool error envelope's first line is JSON: {"error":{"code","message"}}. */
export function failure(r: { content?: { type: string; text?: string }[] }): ToolFailure {
  const text = r.content?.find((c) => c.type === 'text')?.text ?? '';
  try {
    const body = JSON.parse(text.split('\n')[0] ?? '') as { error?: { code?: string; message?: string } };
    if (body.error?.code) return new ToolFailure(body.error.code, unfence(body.error.message ?? body.error.code));
  } catch {
    // not the envelope: the text as it is
  }
  return new ToolFailure('error', unfence(text) || 'The tool failed.');
}
