import { bodies } from '../bodies.js';
import type { EndpointRow } from './row.js';

/** The endpoint table, mobile sessions: not inbox work, so not tools (shapes are our choice: docs/spec-gaps.md). */
export const MOBILE_ROWS = [
  {
    name: 'create_mobile_session',
    method: 'POST',
    path: '/v1/mobile/session',
    scope: null,
    bucket: 'write',
    body: bodies.createMobileSession,
    status: 201,
    idempotent: false,
    returns: 'object',
    resource: 'mobile_session',
    errors: ['invalid_request'],
  },
  {
    name: 'revoke_mobile_session',
    method: 'DELETE',
    path: '/v1/mobile/session',
    scope: null,
    bucket: 'write',
    destructive: true,
    returns: 'object',
    resource: 'mobile_session',
    errors: ['not_found'],
  },
] as const satisfies readonly EndpointRow[];
