import type { EventStore } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

/** Events one session keeps for a client that reconnects with Last-Event-ID. */
const KEPT_EVENTS = 32;
/** Milliseconds a client waits before reconnecting a stream that closed (the SSE `retry` field). */
export const SSE_RETRY_MS = 2_000;

interface Stored {
  id: string;
  stream: string;
  message: JSONRPCMessage;
}

/**
 * One session's recent SSE events, so a client whose stream broke can resume with
 * Last-Event-ID, and so the SDK sends each stream's priming event (an id and `retry`) as the
 * spec's SSE polling asks. Bounded: only the last few events are kept, whatever their streams.
 */
export class RecentEvents implements EventStore {
  private readonly events: Stored[] = [];
  private seq = 0;

  async storeEvent(stream: string, message: JSONRPCMessage): Promise<string> {
    const id = `${stream}.${++this.seq}`;
    this.events.push({ id, stream, message });
    if (this.events.length > KEPT_EVENTS) this.events.shift();
    return id;
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
