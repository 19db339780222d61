import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { InboxServer } from './server.js';

/** Serve over stdio until the client closes stdin; resolves when the transport is closed. */
export async function serveStdio(server: InboxServer): Promise<void> {
  const transport = new StdioServerTransport();
  const closed = new Promise<void>((resolve) => {
    transport.onclose = () => resolve();
  });
  await server.mcp.connect(transport);
  process.stdin.once('end', () => void server.mcp.close());
  await closed;
}
