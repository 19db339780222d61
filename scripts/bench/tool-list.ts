/** Tool list: what a model pays on every turn for the list, and what a tools/list costs the server. */
import type { Tool } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { publishedTool } from '../../src/mcp/server.js';
import { ALL_TOOLS } from '../../tools/index.js';
import { type Section, mcpSession, median, percentile, round, sandbox, UNMETERED } from './lib.js';

const LISTINGS = 50;

export async function toolList(): Promise<Section[]> {
  const sb = await sandbox(UNMETERED);
  const s = await mcpSession(sb);
  // A bare request: the SDK's listTools would also compile every output schema on the client side.
  const answer = z.looseObject({ tools: z.array(z.custom<Tool>()) });
  const timed = async () => {
    const t = performance.now();
    const r = await s.client.request({ method: 'tools/list' }, answer);
    return { ms: performance.now() - t, tools: r.tools, answer: r };
  };
  const first = await timed();
  const repeated: number[] = [];
  for (let i = 0; i < LISTINGS; i++) repeated.push((await timed()).ms);
  const instructions = s.client.getInstructions() ?? '';
  await s.close();
  await sb.close();
  // The server's own share of a listing, in process: the published tools are built once, then only serialized.
  const inProcess: number[] = [];
  for (let i = 0; i <= LISTINGS; i++) {
    const t = performance.now();
    JSON.stringify({ tools: ALL_TOOLS.map(publishedTool) });
    inProcess.push(performance.now() - t);
  }
  const visible = Buffer.byteLength(JSON.stringify(first.tools.map((t) => ({ name: t.name, description: t.description, inputSchema: t.inputSchema }))));
  // The response line as the transport carries it: the JSON-RPC envelope around the answer.
  const wire = Buffer.byteLength(JSON.stringify({ result: first.answer, jsonrpc: '2.0', id: 1 }));
  const outputs = Buffer.byteLength(JSON.stringify(first.tools.map((t) => t.outputSchema ?? null)));
  const instructionBytes = Buffer.byteLength(instructions);
  return [
    {
      title: 'Tool list: bytes a model reads, time a listing takes',
      note: `Model-visible JSON of tools/list (name + description + input schema), read on every turn, against a budget of 27,000 bytes; the whole answer on the wire (with titles, annotations and output schemas) against 60,000. The server instructions carry the shared conventions once per session. Listing times are stdio round trips of a bare tools/list request (${LISTINGS} repeated after the first), without the client's own schema work.`,
      columns: ['what', 'value', 'unit'],
      rows: [
        [`tool list, all ${first.tools.length} tools (name + description + input schema)`, visible, 'bytes'],
        [`tools/list on the wire, all ${first.tools.length} tools (JSON-RPC response)`, wire, 'bytes'],
        ['of which output schemas', outputs, 'bytes'],
        ['≈ tokens of the tool list (bytes/4)', Math.round(visible / 4), 'tokens'],
        ['server instructions', instructionBytes, 'bytes'],
        ['first tools/list', round(first.ms), 'ms'],
        ['repeated tools/list, p50', round(median(repeated)), 'ms'],
        ['repeated tools/list, p95', round(percentile(repeated, 95)), 'ms'],
        ["the server's share: first build of the answer, in process", round(inProcess[0]!), 'ms'],
        ["the server's share: a repeated answer, in process, p50", round(median(inProcess.slice(1)), 3), 'ms'],
      ],
    },
  ];
}
