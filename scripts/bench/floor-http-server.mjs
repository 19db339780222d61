// The floor the hosted figures (npm run bench -- --only http-scale) are compared with: the
// smallest Streamable HTTP server on the same SDK (v2) that serves both protocol eras as ours
// does. A 2025 client gets a stateful session (one McpServer per session); a 2026-07-28 request
// (its _meta names a protocol version) goes to the SDK's createMcpHandler, which builds one
// McpServer per request from the same factory. One tool, doing what ours must at the least:
// send the API request with the caller's key (the Authorization header) and return the JSON as
// text. No auth check, no limits, no views. Plain JavaScript, so it pays no transpiler. Prints
// {"url":…} on stdout when ready.
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import { NodeStreamableHTTPServerTransport, toNodeHandler } from '@modelcontextprotocol/node';
import { createMcpHandler, McpServer, PROTOCOL_VERSION_META_KEY } from '@modelcontextprotocol/server';
import { z } from 'zod';

const base = process.env.REPLY_INBOX_BASE_URL;
const transports = new Map();

function newServer() {
  const server = new McpServer({ name: 'floor-http', version: '1.0.0' });
  server.registerTool('get_lead', { description: 'One lead.', inputSchema: z.object({ lead_id: z.string() }) }, async ({ lead_id }, ctx) => {
    const authorization = ctx.http?.req?.headers.get('authorization') ?? '';
    const r = await fetch(`${base}/v1/workspaces/acme/leads/${lead_id}`, { headers: { authorization } });
    const json = await r.json();
    return { content: [{ type: 'text', text: JSON.stringify(json) }], isError: !r.ok };
  });
  return server;
}

const modern = toNodeHandler(createMcpHandler(newServer, { legacy: 'reject' }));

async function readJson(req) {
  const chunks = [];
  for await (const c of req) chunks.push(c);
  return chunks.length ? JSON.parse(Buffer.concat(chunks).toString('utf8')) : undefined;
}

const http = createServer(async (req, res) => {
  const body = req.method === 'POST' ? await readJson(req) : undefined;
  const meta = body?.params?._meta;
  if (meta && typeof meta === 'object' && PROTOCOL_VERSION_META_KEY in meta) {
    await modern(req, res, body);
    return;
  }
  const id = req.headers['mcp-session-id'];
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
