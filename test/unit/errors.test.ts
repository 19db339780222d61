import type { CallToolResult } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import { ApiError, OutcomeUnknownError, TimeoutError, ValidationError } from '../../src/client/index.js';
import { InvalidResponseError, RESOURCE_NOT_FOUND, ToolError, errorBody, notFound, readError } from '../../src/mcp/errors.js';
import { endpoint } from '../../src/api/endpoints.js';
import { useInProcessServer } from '../helpers/in-process.js';

describe('every failure becomes the tool error envelope through one typed mapping', () => {
  it('an API refusal keeps its status, param, required_scope and retry_after', () => {
    const err = new ApiError({ status: 403, code: 'insufficient_scope', message: 'needs tasks:write', endpoint: 'create_task', required_scope: 'tasks:write' });
    expect(errorBody(err, 'create_task')).toEqual({
      error: { code: 'insufficient_scope', message: 'needs tasks:write', status: 403, required_scope: 'tasks:write' },
      next_step: 'This key lacks the scope tasks:write; get_me lists what it can do. Ask an admin for a key with that scope.',
    });
  });

  it('a tag the workspace does not have (422 on tag_ids) points to list_lead_tags', () => {
    const err = new ApiError({
      status: 422,
      code: 'unprocessable',
      message: 'ltg_x_y is not a lead tag of workspace acme.',
      endpoint: 'set_lead_tags',
      param: 'tag_ids',
    });
    expect(errorBody(err, 'set_lead_tags').next_step).toBe('Use tags that list_lead_tags shows for this workspace.');
  });

  it('a refusal before sending is status 400 with the parameter named', () => {
    const body = errorBody(new ValidationError('invalid_id', 'get_lead', "'lead_id' must be a lead id.", 'lead_id'), 'get_lead');
    expect(body.error).toEqual({ code: 'invalid_id', message: "'lead_id' must be a lead id.", status: 400, param: 'lead_id' });
    expect(body.next_step).toBe('Pass a valid lead_id; list_leads gives real ones.');
  });

  it('a write of unknown outcome carries its check as the next step', () => {
    const cause = new TimeoutError('create_task', 'no answer', 'headers', 'maybe');
    const err = new OutcomeUnknownError('create_task', 'Check with list_tasks first.', false, cause);
    expect(errorBody(err, 'create_task')).toMatchObject({ error: { code: 'outcome_unknown', status: null }, next_step: 'Check with list_tasks first.' });
  });

  it('an unexpected body on a non-idempotent write says not to repeat it', () => {
    const err = new InvalidResponseError(endpoint('create_note'), 'effects: required', 'Check with list_notes.');
    expect(errorBody(err, 'create_note')).toEqual({
      error: { code: 'invalid_response', message: expect.stringContaining('create_note'), status: null },
      next_step: 'The change may have been applied: do not repeat create_note blindly. Check with list_notes.',
    });
  });

  it('a foreign error is internal_error, its message redacted of key material', () => {
    const body = errorBody(new Error('boom with rik_live_abcd1234_0123456789abcdef0123456789abcdef'), 'get_me');
    expect(body.error.code).toBe('internal_error');
    expect(body.error.message).not.toContain('0123456789abcdef0123456789abcdef');
  });

  it('a not_found the server finds itself is 404 not_found naming the parameter, not an internal error', () => {
    expect(errorBody(notFound('get_conversation', 'No message msg_x.', 'message_id'), 'get_conversation')).toEqual({
      error: { code: 'not_found', message: 'No message msg_x.', status: 404, param: 'message_id' },
      next_step: 'Check message_id with get_conversation; objects of another workspace read as not found.',
    });
  });

  it('a resource read that finds nothing is JSON-RPC -32602 (invalid params, as 2026-07-28 says) with the envelope in data', () => {
    const e = readError(new ApiError({ status: 404, code: 'not_found', message: 'No lead.', endpoint: 'get_lead', param: 'lead_id' }), 'lead resource');
    expect(e.code).toBe(-32602);
    expect(e.code).toBe(RESOURCE_NOT_FOUND);
    expect(e.data).toMatchObject({ error: { code: 'not_found', status: 404 } });
  });

  it('a local error is a ReplyInboxError of kind local, so callers branch on code alike', () => {
    const e = new ToolError('read_only', 'create_task', 'not available');
    expect(e.toJSON()).toMatchObject({ kind: 'local', code: 'read_only', endpoint: 'create_task' });
  });
});

describe('get_conversation with a message_id that is not in the thread answers not_found (it said internal_error "Try again later")', () => {
  const server = useInProcessServer();

  it('the envelope is not_found, status 404, param message_id, and the next step names get_conversation', async () => {
    const lead = server.sb.store.leads.inGroup('acme')[0]!;
    const r = (await server.client.callTool({ name: 'get_conversation', arguments: { lead_id: lead.id, message_id: 'msg_doesnotexist' } })) as CallToolResult;
    expect(r.isError).toBe(true);
    const [json, next] = (r.content[0] as { text: string }).text.split('\n');
    expect(JSON.parse(json!).error).toMatchObject({ code: 'not_found', status: 404, param: 'message_id' });
    expect(next).toBe('Check message_id with get_conversation; objects of another workspace read as not found.');
  });
});
