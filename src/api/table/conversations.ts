import { p } from '../params.js';
import { LEAD, type EndpointRow } from './row.js';

/** The endpoint table, conversations: a lead's messages and their attachments (the rows of src/api/endpoints.ts for this area). */
export const CONVERSATION_ROWS = [
  {
    name: 'get_conversation',
    toolset: 'conversations',
    method: 'GET',
    path: `${LEAD}/messages`,
    scope: 'threads:read',
    bucket: 'read',
    alsoMeters: ['thread'],
    query: { limit: p.limit(), order: p.order(), refresh: p.bool() },
    returns: 'list',
    resource: 'message',
    errors: ['invalid_request', 'not_found'],
  },
  {
    name: 'download_attachment',
    toolset: 'conversations',
    method: 'GET',
    path: `${LEAD}/attachments/{attachment_id}/download`,
    scope: 'threads:read',
    bucket: 'read',
    alsoMeters: ['thread'],
    returns: 'binary',
    resource: 'attachment',
    errors: ['invalid_request', 'not_found'],
  },
] as const satisfies readonly EndpointRow[];
