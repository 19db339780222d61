/**
 * The reply desk (an MCP App, the io.modelcontextprotocol/ui extension): the names a tool, the
 * server and the build share. Data only, so tools/ may import it without importing the server.
 */

/** The desk's one resource: the whole view, self-contained. */
export const DESK_URI = 'ui://reply-inbox/desk.html';
/** The MIME type the extension gives an MCP App's HTML. */
export const APP_MIME = 'text/html;profile=mcp-app';
/** The extension's key in a client's capabilities.extensions. */
export const UI_EXTENSION = 'io.modelcontextprotocol/ui';
/** The built view, relative to the package root (scripts/build-desk.ts writes it; files: dist/src ships it). */
export const DESK_HTML_PATH = 'dist/src/mcp/desk/desk.html';
