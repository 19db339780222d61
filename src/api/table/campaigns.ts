import { ENUMS } from '../enums.js';
import { PAGING, p } from '../params.js';
import { WS, type EndpointRow } from './row.js';

/** The endpoint table, sequences and campaigns: the rows of src/api/endpoints.ts for this area. */
export const CAMPAIGN_ROWS = [
  {
    name: 'list_sequences',
    toolset: 'campaigns',
    method: 'GET',
    path: `${WS}/sequences`,
    scope: 'sequences:read',
    bucket: 'read',
    query: { ...PAGING, active: p.bool(), expand: p.list(['templates'], { code: 'invalid_request' }), visibility: p.oneOf(ENUMS.sequence_visibility) },
    returns: 'list',
    resource: 'sequence',
    errors: ['invalid_cursor', 'invalid_request'],
  },
  {
    name: 'list_campaigns',
    toolset: 'campaigns',
    method: 'GET',
    path: `${WS}/campaigns`,
    scope: 'campaigns:read',
    bucket: 'upstream',
    query: { cursor: p.cursor(), limit: p.limit() },
    returns: 'list',
    resource: 'campaign',
    errors: ['invalid_cursor', 'invalid_request', 'upstream_error'],
  },
  {
    name: 'list_campaign_tags',
    toolset: 'campaigns',
    method: 'GET',
    path: `${WS}/campaign_tags`,
    scope: 'campaigns:read',
    bucket: 'upstream',
    query: { cursor: p.cursor(), limit: p.limit() },
    returns: 'list',
    resource: 'campaign_tag',
    errors: ['invalid_cursor', 'invalid_request', 'upstream_error'],
  },
] as const satisfies readonly EndpointRow[];
