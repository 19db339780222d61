import type { App } from '@modelcontextprotocol/ext-apps';
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

/**
 * Everything the desk asks for goes through its host: tool calls (the server's confirmation
 * rules apply as they do for an agent) and opening links (the host asks the person). The desk
 * holds no key and sends no request of its own.
 */
export class Host {
  constructor(
    readonly app: App,
    private readonly workspace: () => string | undefined,
  ) {}

  async call(name: string, args: Json): Promise<Json> {
    const ws = this.workspace();
    const r = await this.app.callServerTool({ name, arguments: { ...(ws ? { workspace: ws } : {}), ...args } });
    if (r.isError) throw failure(r);
    return (r.structuredContent ?? {}) as Json;
  }

  async open(url: string): Promise<boolean> {
    const r = await this.app.openLink({ url });
    return !r.isError;
  }

  zone(): { timeZone?: string; locale?: string } {
    const c = this.app.getHostContext();
    return { timeZone: c?.timeZone, locale: c?.locale };
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
