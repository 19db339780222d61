import { LIMITS } from '../enums.js';
import { PAGING, p } from '../params.js';
import { WS, type EndpointRow } from './row.js';

/** The endpoint table, event types and slots: the rows of src/api/endpoints.ts for this area. */
export const SCHEDULING_ROWS = [
  {
    name: 'list_event_types',
    toolset: 'scheduling',
    method: 'GET',
    path: `${WS}/event_types`,
    scope: 'event_types:read',
    bucket: 'read',
    query: { ...PAGING, active: p.bool(), public: p.bool() },
    aliases: { starting_after: 'cursor' },
    returns: 'list',
    resource: 'event_type',
    errors: ['invalid_cursor', 'invalid_request', 'unsupported_filter'],
  },
  {
    name: 'get_event_type',
    toolset: 'scheduling',
    method: 'GET',
    path: `${WS}/event_types/{event_type_id}`,
    scope: 'event_types:read',
    bucket: 'read',
    returns: 'object',
    resource: 'event_type',
    errors: ['invalid_request', 'not_found'],
  },
  {
    name: 'get_slots',
    toolset: 'scheduling',
    method: 'GET',
    path: `${WS}/event_types/{event_type_id}/slots`,
    scope: 'event_types:read',
    bucket: 'upstream',
    query: { from: p.dateTime(), to: p.dateTime(), timezone: p.timezone() },
    // "60 days maximum; also clamped to booking window and minimum notice": clamped, not refused. Two weeks by default (ours).
    window: { maxDays: LIMITS.slots_window_days, over: 'clamp', unit: 'instant', defaultDays: 14, runs: 'forward', blame: 'to' },
    returns: 'object',
    resource: 'availability',
    errors: ['invalid_request', 'not_found', 'unsupported_filter', 'upstream_error'],
  },
] as const satisfies readonly EndpointRow[];
