// The floor the start, memory, latency and listing figures are compared with: a minimal MCP
// server on the same SDK (v2) and zod, with 46 tools and one GET /v1/me at start, served over
// stdio in both protocol eras by the SDK's serveStdio (one server from the factory per
// connection, as ours). Plain JavaScript, so it pays no transpiler; three tools read the API as
// ours do, the rest only exist.
import { McpServer } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { z } from 'zod';

const base = process.env.REPLY_INBOX_BASE_URL;
const headers = { authorization: `Bearer ${process.env.REPLY_INBOX_API_KEY}` };
const get = async (path) => {
  const r = await fetch(`${base}${path}`, { headers });
  return { content: [{ type: 'text', text: JSON.stringify(await r.json()) }] };
};

function newServer() {
  const server = new McpServer({ name: 'floor', version: '1.0.0' });
  server.registerTool(
    'list_leads',
    { description: 'List leads.', inputSchema: z.object({ limit: z.number().int().min(1).max(100).optional() }) },
    ({ limit }) => get(`/v1/workspaces/acme/leads?limit=${limit ?? 20}`),
  );
  server.registerTool('get_lead', { description: 'One lead.', inputSchema: z.object({ lead_id: z.string() }) }, ({ lead_id }) =>
    get(`/v1/workspaces/acme/leads/${lead_id}`),
  );
  server.registerTool('get_conversation', { description: 'A lead conversation.', inputSchema: z.object({ lead_id: z.string() }) }, ({ lead_id }) =>
    get(`/v1/workspaces/acme/leads/${lead_id}/messages?limit=50&order=desc`),
  );
  for (let i = 4; i <= 46; i++) {
    server.registerTool(
      `tool_${i}`,
      {
        description: `Tool ${i}.`,
        inputSchema: z.object({ workspace: z.string().optional(), id: z.string(), limit: z.number().int().optional(), note: z.string().max(2000).optional() }),
      },
      () => get('/v1/me'),
    );
  }
  return server;
}

await get('/v1/me');
serveStdio(newServer);
