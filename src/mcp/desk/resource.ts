import { readFile } from 'node:fs/promises';
import { ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/server';
import type { McpServer, RegisteredResource, ReadResourceResult } from '@modelcontextprotocol/server';
import { APP_MIME, DESK_HTML_PATH, DESK_URI } from './constants.js';

/**
 * The package root: the nearest folder above this module whose package.json is ours (above
 * src/ from source, dist/src/ built, dist/src/cli/ in the bundled binary).
 */
async function packageRoot(): Promise<URL | null> {
  let dir = new URL('.', import.meta.url);
  for (let up = 0; up < 5; up++) {
    dir = new URL('..', dir);
    try {
      const pkg = JSON.parse(await readFile(new URL('package.json', dir), 'utf8')) as { name?: string };
      if (pkg.name === 'reply-inbox-mcp') return dir;
    } catch {
      // not here: one level up
    }
  }
  return null;
}

let html: Promise<string> | undefined;

/** The built view, read once at its first read (never at start: most clients never ask for it). */
export function deskHtml(): Promise<string> {
  html ??= packageRoot().then(async (root) => {
    if (!root) throw new Error('package root not found');
    return readFile(new URL(DESK_HTML_PATH, root), 'utf8');
  });
  html.catch(() => {
    html = undefined;
  });
  return html;
}

/**
 * The reply desk as a resource, registered disabled: the server enables it once the client has
 * said it renders MCP Apps (negotiate.ts), so other clients neither list nor read it.
 */
export function registerDesk(mcp: McpServer): RegisteredResource {
  const r = mcp.registerResource(
    'reply_desk',
    DESK_URI,
    {
      title: 'Reply desk',
      description: 'Where a person reviews a thread and a draft and sends it themselves: the app of render_template, get_conversation and list_leads.',
      mimeType: APP_MIME,
    },
    async (uri): Promise<ReadResourceResult> => {
      let text: string;
      try {
        text = await deskHtml();
      } catch {
        throw new ProtocolError(ProtocolErrorCode.InternalError, 'The reply desk is not built: run npm run build.');
      }
      // No CSP domains: the view makes no request of its own, so the host's default policy holds.
      return { contents: [{ uri: uri.toString(), mimeType: APP_MIME, text, _meta: { ui: { prefersBorder: true } } }] };
    },
  );
  r.disable();
  return r;
}
