import { bodies } from '../bodies.js';
import { p } from '../params.js';
import { WS, type EndpointRow } from './row.js';

/** The endpoint table, notes: the rows of src/api/endpoints.ts for this area. */
export const NOTE_ROWS = [
  {
    name: 'list_notes',
    toolset: 'notes',
    method: 'GET',
    path: `${WS}/notes`,
    scope: 'notes:read',
    bucket: 'read',
    query: { author_id: p.id('user'), created_since: p.dateTime(), cursor: p.cursor(), lead_id: p.id('lead'), limit: p.limit(), order: p.order() },
    returns: 'list',
    resource: 'note',
    errors: ['invalid_cursor', 'invalid_request', 'not_found', 'unprocessable'],
  },
  {
    name: 'create_note',
    toolset: 'notes',
    method: 'POST',
    path: `${WS}/notes`,
    scope: 'notes:write',
    bucket: 'write',
    body: bodies.createNote,
    misnamed: { text: 'body', note: 'body', notes: 'body' },
    status: 201,
    idempotent: false,
    settledBy: 'list_notes',
    returns: 'object',
    resource: 'note',
    errors: ['invalid_cursor', 'invalid_request', 'not_found', 'unprocessable'],
  },
] as const satisfies readonly EndpointRow[];
