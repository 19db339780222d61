import { z } from 'zod';
import type { ApiErrorCode } from './endpoints.js';

/** The error table of the spec: code → HTTP status. */
export const ERROR_STATUS: Readonly<Record<ApiErrorCode, number>> = {
  invalid_request: 400,
  invalid_cursor: 400,
  invalid_id: 400,
  unsupported_filter: 400,
  unsupported_sort: 400,
  missing_authorization: 401,
  malformed_key: 401,
  invalid_key: 401,
  key_revoked: 401,
  key_expired: 401,
  owner_deactivated: 401,
  insufficient_scope: 403,
  workspace_forbidden: 403,
  test_keys_unsupported: 403,
  not_found: 404,
  conflict: 409,
  unprocessable: 422,
  rate_limited: 429,
  too_many_concurrent: 429,
  internal_error: 500,
  upstream_error: 502,
};

/** The error envelope. Readers accept codes we do not know yet. */
export const errorEnvelopeSchema = z.looseObject({
  error: z.looseObject({
    code: z.string(),
    message: z.string(),
    param: z.string().optional(),
    required_scope: z.string().optional(),
    retry_after: z.number().optional(),
  }),
});
