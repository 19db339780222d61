import type { Logger } from 'pino';
import type { Clock } from '../../clock.js';
import type { Endpoint } from '../../api/endpoints.js';
import type { Fence } from '../view/fence.js';

/** What the MCP layer needs of the API client. */
export interface ApiCaller {
  call(
    name: string,
    req: { path?: Record<string, string>; query?: Record<string, unknown>; body?: unknown; signal?: AbortSignal; deadlineMs?: number },
  ): Promise<{ data: unknown; cachedAgeSeconds?: number }>;
}

/** What a tool's `run` receives. */
export interface ToolContext {
  /** The endpoint of the tool being called: a tool's helpers call this one, never one named again by hand. */
  endpoint: Endpoint;
  api: ApiCaller;
  /** A write: what it did, in the words its answer uses ("created", "marked read"). */
  did?: string;
  /** The workspace argument, or the server's default, or a clear error. */
  workspace(args: { workspace?: string }): string;
  signal: AbortSignal;
  /** The server's clock (tests set it): what "today" is in an answer. */
  clock: Pick<Clock, 'now'>;
  fence: Fence;
  log: Logger;
  progress(done: number, total?: number, message?: string): Promise<void>;
}
