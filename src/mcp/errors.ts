import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { isReplyInboxError } from '../client/index.js';
import { redactSecrets } from '../redact.js';
import { InvalidResponseError } from './runtime/response-check.js';

/** The tool that lists ids of each kind, for "what to do next" sentences. */
const LISTED_BY: Record<string, string> = {
  lead_id: 'list_leads', lead_ids: 'list_leads', task_id: 'list_tasks', meeting_id: 'list_meetings', event_type_id: 'list_event_types',
  template_id: 'list_templates', attachment_id: 'get_conversation', member_ids: 'list_members', member_id: 'list_members',
  assignee_id: 'list_members', tag_ids: 'list_lead_tags', lead_tag_id: 'list_lead_tags', campaign_id: 'list_campaigns',
  folder_id: 'list_template_folders', workspace: 'list_workspaces', host_id: 'get_me', author_id: 'get_me',
};

export interface ToolErrorBody {
  error: { code: string; message: string; status: number | null; param?: string; required_scope?: string; retry_after?: number };
  next_step: string;
}

/** One sentence on what to do next, by code. */
export function nextStep(code: string, tool: string, e: { param?: string; required_scope?: string; retry_after?: number; check?: string }): string {
  const p = e.param;
  const lister = p ? LISTED_BY[p] : undefined;
  switch (code) {
    case 'invalid_id':
      return `Pass a valid ${p ?? 'id'}${lister ? `; ${lister} gives real ones` : ''}.`;
    case 'invalid_request':
    case 'unsupported_filter':
    case 'unsupported_sort':
      return p ? `Fix the argument '${p}' as the message says and call ${tool} again.` : `Fix the arguments as the message says and call ${tool} again.`;
    case 'invalid_cursor':
      return `Call ${tool} again without cursor to start from the first page.`;
    case 'not_found':
      return lister ? `Check ${p} with ${lister}; objects of another workspace read as not found.` : 'Check the ids and the workspace; objects of another workspace read as not found.';
    case 'insufficient_scope':
      return `This key lacks the scope ${e.required_scope ?? 'needed'}; get_me lists what it can do. Ask an admin for a key with that scope.`;
    case 'workspace_forbidden':
      return 'This key does not reach that workspace; list_workspaces shows the ones it does.';
    case 'missing_authorization':
    case 'malformed_key':
    case 'invalid_key':
    case 'key_revoked':
    case 'key_expired':
    case 'owner_deactivated':
    case 'test_keys_unsupported':
      return 'The server\'s API key cannot be used; a person must configure a valid live key (REPLY_INBOX_API_KEY). Retrying will not help.';
    case 'rate_limited':
    case 'too_many_concurrent':
      return `The rate budget is spent for now; try again in ${e.retry_after ?? 60} seconds, and prefer filters over paging.`;
    case 'conflict':
      return 'The meeting already has a different outcome and is locked; pass force=true only if a person confirmed the change.';
    case 'unprocessable':
      return p === 'member_ids' || p === 'assignee_id'
        ? 'Use members that list_members shows with assignable=true.'
        : 'The service refused this valid request; read the message and change what it names.';
    case 'upstream_error':
      return 'The sending platform or calendar did not answer; try again in a minute.';
    case 'outcome_unknown':
      return e.check ?? 'Check whether the change happened before repeating it.';
    case 'network_error':
    case 'timeout':
      return 'The Reply Inbox API did not answer in time; try again shortly.';
    case 'cancelled':
      return 'The call was cancelled; nothing more to do.';
    default:
      return 'Try again later; if it persists, report the code.';
  }
}

export function errorBody(err: unknown, tool: string): ToolErrorBody {
  if (err instanceof InvalidResponseError) {
    const write = err.endpoint.write;
    const next = !write
      ? 'The service answered with something unexpected; try again in a minute, and report it if it persists.'
      : err.endpoint.idempotent
        ? `The change may have been applied; repeating ${tool} is harmless, or read the object again to check.`
        : `The change may have been applied: do not repeat ${tool} blindly. ${err.check ?? ''}`.trim();
    return { error: { code: err.code, message: err.message, status: null }, next_step: next };
  }
  if (isReplyInboxError(err)) {
    const x = err as unknown as Record<string, unknown> & { code: string; message: string; kind: string };
    const status = typeof x.status === 'number' ? x.status : x.kind === 'validation' ? 400 : null;
    const error: ToolErrorBody['error'] = { code: x.code, message: x.message, status };
    if (typeof x.param === 'string') error.param = x.param;
    if (typeof x.required_scope === 'string') error.required_scope = x.required_scope;
    if (typeof x.retry_after === 'number') error.retry_after = x.retry_after;
    return { error, next_step: nextStep(x.code, tool, { ...error, check: typeof x.check === 'string' ? x.check : undefined }) };
  }
  const message = redactSecrets(err instanceof Error ? err.message : String(err));
  return { error: { code: 'internal_error', message, status: null }, next_step: nextStep('internal_error', tool, {}) };
}

/** An error as a tool result the model can act on: isError, the JSON body, and the next step in words. */
export function errorResult(body: ToolErrorBody): CallToolResult {
  return {
    isError: true,
    content: [{ type: 'text', text: `${JSON.stringify({ error: body.error })}\n${body.next_step}` }],
  };
}
