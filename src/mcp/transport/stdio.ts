import type { Transport, JSONRPCMessage } from '@modelcontextprotocol/server';
import { serveStdio as serve } from '@modelcontextprotocol/server/stdio';
import { InFlight, drainCalls } from './in-flight.js';
import { vetLine } from './jsonrpc-guard.js';
import { type ListenRefusal, listenUris } from '../live/key-listens.js';
import type { InboxServer } from '../server.js';

/** A line longer than this is refused and dropped (the SDK's own stdio bound). */
const MAX_LINE_BYTES = 10 * 1024 * 1024;
/**
 * While the client is not reading, messages wait in one queue. Past this many bytes,
 * notifications (logs, progress) are dropped; answers to calls already taken are always kept,
 * and no new call is read until the client reads again, so the answers stay bounded too.
 */
export const MAX_QUEUED_BYTES = 16 * 1024 * 1024;

/**
 * MCP over stdio, one JSON-RPC message per line. Unlike the SDK's transport, a line that
 * is not a valid message is answered with the JSON-RPC error it deserves, not dropped in
 * silence, and the server keeps serving.
 */
export class GuardedStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  /** Requests taken and not yet answered, by id. */
  readonly inFlight = new InFlight();
  private readonly pending = new Set<string>();
  private buffer: Buffer = Buffer.alloc(0);
  private started = false;
  private reading = true;
  /** Lines waiting for stdout to drain, with the promise each send made. */
  private readonly queue: { line: string; written: () => void }[] = [];
  private queuedBytes = 0;
  /** stdout refused more: one drain listener is waiting, and stdin is paused. */
  private blocked = false;
  /** Notifications dropped because the queue was full. */
  dropped = 0;
  /** The rest of a line refused for its length is being read past, up to its newline. */
  private skipping = false;
  /** Called once the transport is closed, whoever closed it (the SDK's serving entry owns onclose). */
  closed?: () => void;
  /** Who watches a listen stream's resource URIs while it is open (the connection's server). */
  listens?: StreamListens;

  constructor(
    private readonly stdin: NodeJS.ReadableStream = process.stdin,
    private readonly stdout: NodeJS.WritableStream = process.stdout,
    private readonly maxQueuedBytes = MAX_QUEUED_BYTES,
    private readonly maxLineBytes = MAX_LINE_BYTES,
  ) {}

  /** Lines waiting for the client to read, and their bytes. */
  get backlog(): { lines: number; bytes: number } {
    return { lines: this.queue.length, bytes: this.queuedBytes };
  }

  private readonly onData = (chunk: Buffer) => {
    this.buffer = this.buffer.length ? Buffer.concat([this.buffer, chunk]) : chunk;
    for (let nl = this.buffer.indexOf(10); nl !== -1; nl = this.buffer.indexOf(10)) {
      const skipped = this.skipping;
      this.skipping = false;
      const line = this.buffer.toString('utf8', 0, nl).replace(/\r$/, '');
      this.buffer = this.buffer.subarray(nl + 1);
      // The tail of a line refused for its length is not a message of its own.
      if (!skipped && line.trim() !== '') this.handle(line);
    }
    if (this.buffer.length > this.maxLineBytes) {
      // Answered now, under the request's own id when its head names one; the rest of the line is skipped.
      const id = this.skipping ? undefined : idAtHead(this.buffer);
      this.buffer = Buffer.alloc(0);
      if (id === undefined && this.skipping) return;
      this.skipping = true;
      void this.send({
        jsonrpc: '2.0',
        id: id ?? null,
        error: { code: -32600, message: `Invalid Request: a message over ${this.maxLineBytes} bytes; send less in one request.` },
      } as unknown as JSONRPCMessage);
    }
  };
  private readonly onError = (e: Error) => this.onerror?.(e);

  private handle(line: string): void {
    const v = vetLine(line);
    if (!('message' in v)) {
      if (v.reply) void this.send(v.reply);
      return;
    }
    const m = v.message as { id?: string | number; method?: string; params?: { requestId?: string | number } };
    if (m.method === 'subscriptions/listen' && m.id !== undefined) {
      this.listen(m.id, v.message);
      return;
    }
    if (m.method === 'notifications/cancelled' && m.params?.requestId !== undefined) this.listens?.end(m.params.requestId);
    const key = 'method' in m && 'id' in m ? idKey(m.id) : null;
    if (key !== null && !this.pending.has(key)) {
      this.pending.add(key);
      this.inFlight.start();
    }
    this.deliver(v.message);
  }

  private deliver(message: JSONRPCMessage): void {
    try {
      this.onmessage?.(message);
    } catch (e) {
      // A message the protocol layer chokes on must not end the process: report it, keep serving.
      this.onerror?.(e as Error);
    }
  }

  /**
   * A 2026-07-28 listen stream: not a call in flight (it stays open until the client cancels it
   * or the server closes), and its resource URIs are watched first; a URI that cannot be watched
   * refuses the stream before the SDK acknowledges it.
   */
  private listen(id: string | number, message: JSONRPCMessage): void {
    const uris = listenUris(message);
    if (!this.listens || uris.length === 0) {
      this.deliver(message);
      return;
    }
    void this.listens.open(id, uris).then(
      (refused) => (refused ? void this.send({ jsonrpc: '2.0', id, error: refused } as JSONRPCMessage) : this.deliver(message)),
      (e: unknown) => this.onerror?.(e as Error),
    );
  }

  /** Take no more input: a draining server answers what it took and nothing new. */
  stopReading(): void {
    this.reading = false;
    this.stdin.off('data', this.onData);
    this.stdin.pause();
    this.buffer = Buffer.alloc(0);
  }

  async start(): Promise<void> {
    if (this.started) throw new Error('GuardedStdioTransport already started');
    this.started = true;
    this.stdin.on('data', this.onData);
    this.stdin.on('error', this.onError);
  }

  send(message: JSONRPCMessage): Promise<void> {
    const m = message as { id?: string | number; method?: string };
    const key = !('method' in m) && 'id' in m ? idKey(m.id) : null;
    if (key !== null && this.pending.delete(key)) this.inFlight.end();
    const line = `${JSON.stringify(message)}\n`;
    if (!this.blocked) {
      if (!this.stdout.write(line)) this.block();
      return Promise.resolve();
    }
    if ('method' in m && this.queuedBytes + line.length > this.maxQueuedBytes) {
      this.dropped++;
      return Promise.resolve();
    }
    this.queuedBytes += line.length;
    return new Promise((written) => this.queue.push({ line, written }));
  }

  /** stdout is full: wait for one drain, and read no new call meanwhile. */
  private block(): void {
    this.blocked = true;
    this.stdin.pause();
    this.stdout.once('drain', this.flush);
  }

  /** The client read: write what waited, in order, until stdout is full again or the queue is empty. */
  private readonly flush = () => {
    this.blocked = false;
    while (this.queue.length > 0) {
      const q = this.queue.shift()!;
      this.queuedBytes -= q.line.length;
      const more = this.stdout.write(q.line);
      q.written();
      if (!more) {
        this.block();
        return;
      }
    }
    if (this.reading) this.stdin.resume();
  };

  async close(): Promise<void> {
    this.reading = false;
    this.stdout.off('drain', this.flush);
    this.stdin.off('data', this.onData);
    this.stdin.off('error', this.onError);
    if (this.stdin.listenerCount('data') === 0) this.stdin.pause();
    this.buffer = Buffer.alloc(0);
    this.onclose?.();
    this.closed?.();
  }
}

/**
 * The id a JSON-RPC request names near its start ({"jsonrpc":"2.0","id":7,"method":…}), read from
 * its first 4 KiB: the only part of an oversize line worth reading. Undefined when none shows there.
 */
function idAtHead(buffer: Buffer): string | number | undefined {
  const head = buffer.toString('utf8', 0, Math.min(buffer.length, 4096));
  const m = /^\s*\{\s*(?:"jsonrpc"\s*:\s*"2\.0"\s*,\s*)?"id"\s*:\s*(-?\d{1,15}|"(?:[^"\\]|\\.){0,200}")/.exec(head);
  if (!m) return undefined;
  const raw = m[1]!;
  return raw.startsWith('"') ? (JSON.parse(raw) as string) : Number(raw);
}

const idKey = (id: unknown): string | null => (typeof id === 'string' ? `s:${id}` : typeof id === 'number' ? `n:${id}` : null);

export interface StdioOptions {
  /** How long calls in flight may take to be answered once shutdown begins. Default 30 s. */
  drainTimeoutMs?: number;
  /**
   * End the calls still under way when that time is up: those queued answer "cancelled before it
   * was sent", those still at the API are cut (a write answers outcome_unknown).
   */
  cancelQueued?(): Promise<void>;
  /** Told once when the drain begins (the binary starts its exit backstop). */
  onDrain?(): void;
  /** Signals that start the drain. Default SIGTERM and SIGINT. */
  signals?: NodeJS.Signals[];
}

/** A connection's listen streams: open one (null, or its refusal), end one (cancelled). */
export interface StreamListens {
  open(id: string | number, uris: unknown[]): Promise<ListenRefusal | null>;
  end(id: string | number): void;
}

/** Which protocol era a connection opened with: 2025 (`initialize`) or 2026-07-28 (a `_meta` envelope on each request). */
export type Era = 'legacy' | 'modern';

/**
 * Builds the server of one connection once its era is known. The SDK may call it twice on one
 * connection (a 2026 `server/discover` probe answered, then a 2025 `initialize`): only the last
 * one serves.
 */
export type InboxServerFactory = (era: Era) => InboxServer | Promise<InboxServer>;

/**
 * Serve over stdio until shutdown, in both protocol eras: the SDK's serveStdio reads the
 * connection's opening (an `initialize`, or a request carrying the 2026-07-28 envelope) and
 * pins one server from the factory; lines are read and written by our guarded transport. A
 * signal or the end of stdin drains as HTTP mode does: no new message is taken, the calls in
 * flight are answered (up to drainTimeoutMs; then what is still queued answers "cancelled" and
 * what is still at the API is cut), then the server closes. Resolves when the connection is closed.
 */
export async function serveStdio(factory: InboxServerFactory, o: StdioOptions = {}): Promise<void> {
  const transport = new GuardedStdioTransport();
  let closedNow!: () => void;
  const closed = new Promise<void>((resolve) => {
    closedNow = resolve;
  });
  transport.closed = closedNow;
  let serving: InboxServer | undefined;
  transport.listens = {
    open: async (id, uris) => (serving ? serving.openStream(id, uris) : null),
    end: (id) => serving?.closeStream(id),
  };
  const handle = serve(
    async ({ era }) => {
      const server = await factory(era);
      serving = server;
      return server.mcp;
    },
    { transport, onerror: (e) => transport.onerror?.(e) },
  );
  let drained: Promise<void> | null = null;
  const drain = () => {
    drained ??= (async () => {
      o.onDrain?.();
      transport.stopReading();
      await drainCalls(transport.inFlight, o.drainTimeoutMs ?? 30_000, o.cancelQueued ?? (async () => undefined));
      await serving?.close();
      await handle.close();
    })();
    return drained;
  };
  const signals = o.signals ?? ['SIGTERM', 'SIGINT'];
  for (const s of signals) process.once(s, drain);
  process.stdin.once('end', drain);
  try {
    await closed;
  } finally {
    for (const s of signals) process.off(s, drain);
  }
}
