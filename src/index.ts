/**
 * reply-inbox-mcp as a library: the MCP server to embed in your own process (any MCP
 * transport), the tools (one per inbox endpoint), the API client and the sandbox.
 */
export { InboxServer, type InboxServerOptions, SERVER_INSTRUCTIONS } from './mcp/server.js';
export { serveStdio } from './mcp/transport/stdio.js';
export { ALL_TOOLS } from '../tools/index.js';
export { ReplyInboxClient } from './client/index.js';
export { startSandbox, SANDBOX_KEYS, type Sandbox, type SandboxOptions } from './sandbox/index.js';
export { VERSION } from './version.js';
