import type { EventStore, JSONRPCMessage } from '@modelcontextprotocol/server';

/** Events one session keeps for a client that reconnects with Last-Event-ID. */
const KEPT_EVENTS = 32;
/** Milliseconds a client waits before reconnecting a stream that closed (the SSE `retry` field). */
export const SSE_RETRY_MS = 2_000;
/**
 * How long an event is kept for a resume: many times the `retry` a client waits before it
 * reconnects. Every answer sent over SSE is stored, tool results of up to the result budget in
 * both forms among them, so a session idle for minutes would otherwise hold its last 32 answers.
 */
export const RESUME_WINDOW_MS = 30_000;

interface Stored {
  id: string;
  stream: string;
  message: JSONRPCMessage;
  at: number;
}

/**
 * One session's recent SSE events, so a client whose stream broke can resume with
 * Last-Event-ID, and so the SDK sends each stream's priming event (an id and `retry`) as the
 * spec's SSE polling asks. Bounded: the last KEPT_EVENTS events of the last RESUME_WINDOW_MS,
 * whatever their streams; older ones go when the next is stored or the session table sweeps.
 */
export class RecentEvents implements EventStore {
  private readonly events: Stored[] = [];
  private seq = 0;

  constructor(private readonly now: () => number = Date.now) {}

  async storeEvent(stream: string, message: JSONRPCMessage): Promise<string> {
    const id = `${stream}.${++this.seq}`;
    this.events.push({ id, stream, message, at: this.now() });
    if (this.events.length > KEPT_EVENTS) this.events.shift();
    this.trim();
    return id;
  }

  /** Drop the events past RESUME_WINDOW_MS. */
  trim(): void {
    const oldest = this.now() - RESUME_WINDOW_MS;
    let past = 0;
    while (past < this.events.length && this.events[past]!.at < oldest) past++;
    if (past > 0) this.events.splice(0, past);
  }

  /** Events held now. */
  get size(): number {
    return this.events.length;
  }

  async getStreamIdForEventId(eventId: string): Promise<string | undefined> {
    return this.events.find((e) => e.id === eventId)?.stream;
  }

  async replayEventsAfter(lastEventId: string, { send }: { send: (id: string, m: JSONRPCMessage) => Promise<void> }): Promise<string> {
    const at = this.events.findIndex((e) => e.id === lastEventId);
    if (at < 0) return '';
    const stream = this.events[at]!.stream;
    // A priming event stores no message (an empty object): nothing to send again.
    for (const e of this.events.slice(at + 1)) if (e.stream === stream && Object.keys(e.message).length > 0) await send(e.id, e.message);
    return stream;
  }
}
