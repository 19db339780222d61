import type { CallToolResult, Client } from '@modelcontextprotocol/client';
import { expect } from 'vitest';

/**
 * Tool calls as a model makes them, through an SDK client of any transport (the binary's stdio
 * or HTTP, or the in-process server of the tool tests), and what their answers must hold.
 */

/** Whatever holds a connected SDK client. */
export interface HasClient {
  client: Client;
}

export interface Ok {
  structured: any;
  text: string;
  result: CallToolResult;
}

export interface ToolErrorBody {
  error: { code: string; message: string; status: number | null; param?: string; required_scope?: string; retry_after?: number };
  nextStep: string;
}

/** The text of the first content block. */
export function textOf(r: CallToolResult): string {
  const first = r.content[0];
  expect(first?.type).toBe('text');
  return (first as { text: string }).text;
}

/** A call that must succeed: not isError, with structuredContent. */
export async function callOk(s: HasClient, name: string, args: Record<string, unknown> = {}): Promise<Ok> {
  const result = (await s.client.callTool({ name, arguments: args })) as CallToolResult;
  if (result.isError) throw new Error(`${name} failed: ${textOf(result)}`);
  expect(result.structuredContent, `${name} has structuredContent`).toBeTypeOf('object');
  return { structured: result.structuredContent, text: textOf(result), result };
}

/** Split an error result into its JSON line and the next-step sentence after it. */
export function parseToolError(r: CallToolResult): ToolErrorBody {
  expect(r.isError).toBe(true);
  const text = textOf(r);
  const nl = text.indexOf('\n');
  expect(nl).toBeGreaterThan(0);
  const body = JSON.parse(text.slice(0, nl)) as { error: ToolErrorBody['error'] };
  return { error: body.error, nextStep: text.slice(nl + 1) };
}

/** A call that must fail as a tool error (isError), not as a protocol error. */
export async function callErr(s: HasClient, name: string, args: Record<string, unknown> = {}): Promise<ToolErrorBody> {
  const result = (await s.client.callTool({ name, arguments: args })) as CallToolResult;
  return parseToolError(result);
}

/** The effects every write answers with (general rule 7). */
export function expectWriteEffects(structured: any): void {
  expect(structured.effects).toBeTypeOf('object');
  expect(structured.effects.provider_writes).toEqual([]);
}

/** Every tool's name on the server, sorted. */
export async function toolNames(s: HasClient): Promise<string[]> {
  const { tools } = await s.client.listTools();
  return tools.map((t) => t.name).sort();
}
