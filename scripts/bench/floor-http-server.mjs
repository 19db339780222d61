// The floor the hosted figures (npm run bench -- --only http-scale) are compared with: the
// smallest stateful Streamable HTTP server on the same SDK, one McpServer per session, one
// tool. The tool does what ours must at the least: send the API request with the caller's
// key (the Authorization header) and return the JSON as text. No auth check, no limits, no
// views. Plain JavaScript, so it pays no transpiler. Prints {"url":…} on stdout when ready.
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import { NodeStreamableHTTPServerTransport } from '@modelcontextprotocol/node';
import { McpServer } from '@modelcontextprotocol/server';
import { z } from 'zod';

const base = process.env.REPLY_INBOX_BASE_URL;
const transports = new Map();

function newServer() {
  const server = new McpServer({ name: 'floor-http', version: '1.0.0' });
  server.registerTool('get_lead', { description: 'One lead.', inputSchema: z.object({ lead_id: z.string() }) }, async ({ lead_id }, ctx) => {
    const authorization = ctx.http?.req?.headers.authorization;
    const r = await fetch(`${base}/v1/workspaces/acme/leads/${lead_id}`, { headers: { authorization } });
    return { content: [{ type: 'text', text: JSON.stringify(await r.json()) }] };
  });
  return server;
}

async function readJson(req) {
  const chunks = [];
  for await (const c of req) chunks.push(c);
  return chunks.length ? JSON.parse(Buffer.concat(chunks).toString('utf8')) : undefined;
}

const http = createServer(async (req, res) => {
  const id = req.headers['mcp-session-id'];
  const body = req.method === 'POST' ? await readJson(req) : undefined;
  let transport = typeof id === 'string' ? transports.get(id) : undefined;
  if (!transport && req.method === 'POST' && body?.method === 'initialize') {
    transport = new NodeStreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (sid) => transports.set(sid, transport),
    });
    transport.onclose = () => transports.delete(transport.sessionId);
    await newServer().connect(transport);
  }
  if (!transport) {
    res.writeHead(404, { 'content-type': 'application/json' }).end('{"jsonrpc":"2.0","error":{"code":-32001,"message":"Session not found"},"id":null}');
    return;
  }
  await transport.handleRequest(req, res, body);
});
http.listen(0, '127.0.0.1', () => process.stdout.write(`${JSON.stringify({ url: `http://127.0.0.1:${http.address().port}/mcp` })}\n`));
