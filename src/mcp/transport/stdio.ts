import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { vetLine } from './jsonrpc-guard.js';
import type { InboxServer } from '../server.js';

/** A line longer than this is refused and dropped (the SDK's own stdio bound). */
const MAX_LINE_BYTES = 10 * 1024 * 1024;

/**
 * MCP over stdio, one JSON-RPC message per line. Unlike the SDK's transport, a line that
 * is not a valid message is answered with the JSON-RPC error it deserves, not dropped in
 * silence, and the server keeps serving.
 */
export class GuardedStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  private buffer: Buffer = Buffer.alloc(0);
  private started = false;

  constructor(
    private readonly stdin: NodeJS.ReadableStream = process.stdin,
    private readonly stdout: NodeJS.WritableStream = process.stdout,
  ) {}

  private readonly onData = (chunk: Buffer) => {
    this.buffer = this.buffer.length ? Buffer.concat([this.buffer, chunk]) : chunk;
    for (let nl = this.buffer.indexOf(10); nl !== -1; nl = this.buffer.indexOf(10)) {
      const line = this.buffer.toString('utf8', 0, nl).replace(/\r$/, '');
      this.buffer = this.buffer.subarray(nl + 1);
      if (line.trim() !== '') this.handle(line);
    }
    if (this.buffer.length > MAX_LINE_BYTES) {
      this.buffer = Buffer.alloc(0);
      void this.send({ jsonrpc: '2.0', id: null, error: { code: -32600, message: `Invalid Request: a message over ${MAX_LINE_BYTES} bytes.` } } as unknown as JSONRPCMessage);
    }
  };
  private readonly onError = (e: Error) => this.onerror?.(e);

  private handle(line: string): void {
    const v = vetLine(line);
    if ('message' in v) this.onmessage?.(v.message);
    else if (v.reply) void this.send(v.reply);
  }

  async start(): Promise<void> {
    if (this.started) throw new Error('GuardedStdioTransport already started');
    this.started = true;
    this.stdin.on('data', this.onData);
    this.stdin.on('error', this.onError);
  }

  send(message: JSONRPCMessage): Promise<void> {
    return new Promise((resolve) => {
      if (this.stdout.write(`${JSON.stringify(message)}\n`)) resolve();
      else this.stdout.once('drain', resolve);
    });
  }

  async close(): Promise<void> {
    this.stdin.off('data', this.onData);
    this.stdin.off('error', this.onError);
    if (this.stdin.listenerCount('data') === 0) this.stdin.pause();
    this.buffer = Buffer.alloc(0);
    this.onclose?.();
  }
}

/** Serve over stdio until the client closes stdin; resolves when the transport is closed. */
export async function serveStdio(server: InboxServer): Promise<void> {
  const transport = new GuardedStdioTransport();
  const closed = new Promise<void>((resolve) => {
    transport.onclose = () => resolve();
  });
  await server.mcp.connect(transport);
  process.stdin.once('end', () => void server.mcp.close());
  await closed;
}
