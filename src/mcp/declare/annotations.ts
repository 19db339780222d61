import type { ToolAnnotations } from '@modelcontextprotocol/server';
import type { Endpoint } from '../../api/endpoints.js';

/**
 * MCP annotations follow from the endpoint table, never written by hand per tool:
 * a read changes nothing; destructive and idempotent are the table's own judgements
 * (e.g. set_status can complete tasks for good; create_task repeats create twice);
 * every call reaches the Reply Inbox service, and the upstream-bucket ones reach the
 * sending platform or calendars beyond it.
 */
export function annotationsFor(e: Endpoint, title: string): ToolAnnotations {
  return {
    title,
    readOnlyHint: !e.write,
    destructiveHint: e.write && e.destructive,
    idempotentHint: e.idempotent,
    openWorldHint: true,
  };
}
