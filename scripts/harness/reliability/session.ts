import { AjvJsonSchemaValidator } from '@modelcontextprotocol/client/validators/ajv';
import { Client } from '@modelcontextprotocol/client';
import type { CallToolResult, Tool } from '@modelcontextprotocol/client';
import type { ToolErrorBody } from '../../../src/mcp/errors.js';
import { BIN, pidAlive, stdioTransport } from '../processes.js';

/* An MCP session over stdio that reports every kind of answer, judged against the published schemas. */

/** The error envelope's inner object, as the server defines it. */
export type ToolError = ToolErrorBody['error'];

/** Every way a tools/call can end, as the test sees it on the wire. */
export type Outcome =
  | { kind: 'ok'; result: CallToolResult; text: string }
  | { kind: 'tool_error'; error: ToolError; nextStep: string; text: string; result: CallToolResult }
  /** A result whose structuredContent fails the tool's published outputSchema, or an isError without our envelope. */
  | { kind: 'bad_result'; why: string; result: CallToolResult }
  /** A JSON-RPC error instead of a result (or no answer in time). */
  | { kind: 'protocol_error'; code: number | undefined; message: string };

export interface Session {
  client: Client;
  pid: number;
  tools: Tool[];
  stderr(): string;
  /** Whether the binary is still running and its stdio still open. */
  alive(): boolean;
  call(name: string, args: Record<string, unknown>, timeoutMs?: number): Promise<Outcome>;
  close(): Promise<void>;
}

const ajv = new AjvJsonSchemaValidator();

/** The text of the first content block, or '' when there is none. */
export function firstText(r: CallToolResult): string {
  const b = r.content?.[0];
  return b && b.type === 'text' ? b.text : '';
}

/** Split an isError text into the error envelope line and the next-step sentence. */
export function parseErrorText(text: string): { error: ToolError; nextStep: string } | null {
  const nl = text.indexOf('\n');
  if (nl <= 0) return null;
  try {
    const body = JSON.parse(text.slice(0, nl)) as { error?: ToolError };
    if (!body.error || typeof body.error.code !== 'string' || typeof body.error.message !== 'string') return null;
    return { error: body.error, nextStep: text.slice(nl + 1) };
  } catch {
    return null;
  }
}

/**
 * Spawn the MCP binary over stdio. Calls go out as raw tools/call requests so that the
 * test, not the SDK client, judges each answer against the tool's published outputSchema.
 */
export async function startSession(args: string[], env: Record<string, string> = {}): Promise<Session> {
  const transport = stdioTransport(process.execPath, [BIN, ...args], env);
  let err = '';
  transport.stderr?.on('data', (d: Buffer) => (err += d.toString('utf8')));
  const client = new Client({ name: 'reliability-test', version: '0.0.0' });
  let closed = false;
  client.onclose = () => {
    closed = true;
  };
  try {
    await client.connect(transport);
  } catch (e) {
    throw new Error(`the MCP binary did not start: ${(e as Error).message}\n${err}`);
  }
  const pid = transport.pid ?? -1;
  const { tools } = await client.listTools();
  const outputs = new Map(tools.map((t) => [t.name, t.outputSchema ? ajv.getValidator(t.outputSchema as never) : null]));
  const call = async (name: string, a: Record<string, unknown>, timeoutMs = 120_000): Promise<Outcome> => {
    let result: CallToolResult;
    try {
      result = (await client.request({ method: 'tools/call', params: { name, arguments: a } }, { timeout: timeoutMs })) as CallToolResult;
    } catch (e) {
      return { kind: 'protocol_error', code: (e as { code?: number }).code, message: (e as Error).message };
    }
    const text = firstText(result);
    if (result.isError) {
      const parsed = parseErrorText(text);
      return parsed
        ? { kind: 'tool_error', ...parsed, text, result }
        : { kind: 'bad_result', why: `isError without the error envelope: ${text.slice(0, 200)}`, result };
    }
    const validate = outputs.get(name);
    if (validate) {
      if (!result.structuredContent) return { kind: 'bad_result', why: 'no structuredContent', result };
      const v = validate(result.structuredContent);
      if (!v.valid) return { kind: 'bad_result', why: `structuredContent fails the outputSchema: ${v.errorMessage}`, result };
    }
    return { kind: 'ok', result, text };
  };
  return {
    client,
    pid,
    tools,
    stderr: () => err,
    alive: () => !closed && pid >= 0 && pidAlive(pid),
    call,
    close: () => client.close(),
  };
}
