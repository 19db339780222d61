import { bodies } from '../bodies.js';
import { MEETING_OUTCOME_FILTER, ENUMS } from '../enums.js';
import { PAGING, p } from '../params.js';
import { WS, type EndpointRow } from './row.js';

/** The endpoint table, meetings: the rows of src/api/endpoints.ts for this area. */
export const MEETING_ROWS = [
  {
    name: 'list_meetings',
    toolset: 'meetings',
    method: 'GET',
    path: `${WS}/meetings`,
    scope: 'meetings:read',
    bucket: 'upstream',
    query: {
      ...PAGING,
      outcome: p.list(MEETING_OUTCOME_FILTER),
      source: p.oneOf(ENUMS.meeting_source),
      host_id: p.id('user'),
      event_type_id: p.id('event_type'),
      booked_since: p.dateTime(),
      booked_before: p.dateTime(),
      starts_after: p.dateTime(),
      starts_before: p.dateTime(),
    },
    aliases: { starting_after: 'cursor' },
    returns: 'list',
    resource: 'meeting',
    errors: ['invalid_cursor', 'invalid_request', 'unsupported_filter'],
  },
  {
    name: 'get_meeting',
    toolset: 'meetings',
    method: 'GET',
    path: `${WS}/meetings/{meeting_id}`,
    scope: 'meetings:read',
    bucket: 'read',
    returns: 'object',
    resource: 'meeting',
    errors: ['invalid_request', 'not_found'],
  },
  {
    name: 'set_meeting_outcome',
    toolset: 'meetings',
    method: 'POST',
    path: `${WS}/meetings/{meeting_id}/outcome`,
    scope: 'meetings:write',
    bucket: 'write',
    // Locks the meeting; a different outcome afterwards needs force.
    body: bodies.setMeetingOutcome,
    destructive: true,
    returns: 'object',
    resource: 'meeting',
    errors: ['conflict', 'invalid_request', 'not_found'],
  },
] as const satisfies readonly EndpointRow[];
