import { ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/server';
import type { CallToolResult } from '@modelcontextprotocol/server';
import type { z } from 'zod';
import { ApiError, BucketSpentError, OutcomeUnknownError, ReplyInboxError, ValidationError } from '../client/errors.js';
import type { Endpoint } from '../api/endpoints.js';
import { listerOf } from '../api/listers.js';

/**
 * The one error module of the MCP server. Every failure a tool call, a resource read or a
 * prompt meets is a typed error (the client's, or one of the two below) and becomes the
 * tool error envelope here, with one sentence on what to do next. Nothing else maps errors.
 */

/** Refused or failed in this server, not by the API, and said in the API's vocabulary (codes, status, param). */
export class ToolError extends ReplyInboxError {
  readonly kind = 'local' as const;
  /** The HTTP status the API gives the same code (404 for not_found), or null when there is none. */
  readonly status: number | null;
  readonly param: string | undefined;
  /** Overrides the next step the code would give. */
  readonly next_step: string | undefined;

  constructor(code: string, tool: string, message: string, opts: { status?: number | null; param?: string; next_step?: string } = {}) {
    super(code, tool, message);
    this.status = opts.status ?? null;
    this.param = opts.param;
    this.next_step = opts.next_step;
  }
}

/** No such object, found by the server itself (e.g. a message id missing from the thread it read). */
export function notFound(tool: string, message: string, param?: string): ToolError {
  return new ToolError('not_found', tool, message, { status: 404, ...(param !== undefined ? { param } : {}) });
}

/**
 * The API answered 2xx with a body that is not what the endpoint returns. A tool must not
 * pass such a body on as a result (it would fail the tool's own output schema) nor crash
 * on it; for a write, the change may still have happened.
 */
export class InvalidResponseError extends ToolError {
  readonly write: boolean;
  readonly idempotent: boolean;
  readonly check: string | null;
  constructor(e: Endpoint, where: string, check: string | null) {
    super(
      'invalid_response',
      e.name,
      `The API answered ${e.name} with a body that is not ${e.returns === 'list' ? `a list of ${e.resource}` : `a ${e.resource}`} (${where}).`,
    );
    this.write = e.write;
    this.idempotent = e.idempotent;
    this.check = check;
  }
}

export interface ToolErrorBody {
  error: {
    code: string;
    message: string;
    status: number | null;
    param?: string;
    required_scope?: string;
    retry_after?: number;
    bucket?: string;
    refill_at?: string;
  };
  next_step: string;
}

/** One sentence on what to do next, by code. */
export function nextStep(
  code: string,
  tool: string,
  e: { param?: string; required_scope?: string; retry_after?: number; check?: string; bucket?: string; named?: string },
): string {
  const p = e.param;
  // A resource is read, not called.
  const again = tool.endsWith(' resource') ? `read the ${tool} again` : `call ${tool} again`;
  // An item of a list argument (assignee_id.0) is listed by the tool of the whole argument.
  const top = p?.replace(/\.\d+$/, '');
  const lister = top ? listerOf(top) : undefined;
  switch (code) {
    case 'invalid_id':
      return `Pass a valid ${top ?? 'id'}${lister ? `; ${lister} gives real ones` : ''}.`;
    case 'invalid_request':
    case 'unsupported_filter':
    case 'unsupported_sort':
      if (e.named && e.named !== tool) return `${tool} cannot do this; call ${e.named}.`;
      return p ? `Fix the argument '${p}' as the message says and ${again}.` : `Fix the arguments as the message says and ${again}.`;
    case 'invalid_cursor':
      return `${again[0]!.toUpperCase()}${again.slice(1)} without cursor to start from the first page.`;
    case 'not_found':
      return lister
        ? `Check ${p} with ${lister}; objects of another workspace read as not found.`
        : 'Check the ids and the workspace; objects of another workspace read as not found.';
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
      return "The server's API key cannot be used; a person must configure a valid live key (REPLY_INBOX_API_KEY). Retrying will not help.";
    case 'rate_limited':
      if (e.bucket) {
        return `Nothing was sent. The ${e.bucket} bucket refills in ${e.retry_after ?? 60} seconds: ${again} then. Meanwhile, tools that do not spend the ${e.bucket} bucket still work.`;
      }
      return `The rate budget is spent for now; try again in ${e.retry_after ?? 60} seconds, and prefer filters over paging.`;
    case 'too_many_concurrent':
      return `The rate budget is spent for now; try again in ${e.retry_after ?? 60} seconds, and prefer filters over paging.`;
    case 'conflict':
      return 'The meeting already has a different outcome and is locked; pass force=true only if a person confirmed the change.';
    case 'unprocessable':
      if (p === 'member_ids' || p === 'assignee_id') return 'Use members that list_members shows with assignable=true.';
      if (p === 'tag_ids') return 'Use tags that list_lead_tags shows for this workspace.';
      return 'The service refused this valid request; read the message and change what it names.';
    case 'upstream_error':
      return 'The sending platform or calendar did not answer; try again in a minute.';
    case 'response_too_large':
      return 'The answer is too large to pass through this server; ask for less (a smaller limit, fewer expansions, one message), and open a large attachment in the Reply Inbox app.';
    case 'outcome_unknown':
      return e.check ?? 'Check whether the change happened before repeating it.';
    case 'limiter_unavailable':
      return `Nothing was sent: the server's shared rate limiter (Redis) is down. Try ${tool} again in a minute; an operator should check Redis.`;
    case 'network_error':
    case 'timeout':
      return 'The Reply Inbox API did not answer in time; try again shortly.';
    case 'cancelled':
      // A cancelled call reaches the model only when the server stopped under it (a client's own cancel gets no answer).
      return `The server stopped before the call finished; a call cancelled before it was sent changed nothing: ${again} once reconnected.`;
    default:
      return 'Try again later; if it persists, report the code.';
  }
}

/** The tool a message tells the caller to use instead ("… call mark_booked instead"), if any. */
function toolToCall(message: string): string | undefined {
  return /\b(?:call|use) ([a-z]+(?:_[a-z]+)+) instead\b/.exec(message)?.[1];
}

/** A body the API should not have sent: whether repeating the call is safe depends on what the call was. */
function invalidResponseStep(err: InvalidResponseError, tool: string): string {
  if (!err.write) return 'The service answered with something unexpected; try again in a minute, and report it if it persists.';
  if (err.idempotent) return `The change may have been applied; repeating ${tool} is harmless, or read the object again to check.`;
  return `The change may have been applied: do not repeat ${tool} blindly. ${err.check ?? ''}`.trim();
}

/** The status a typed error carries: the API's, the one it would give (validation), or none. */
function statusOf(err: ReplyInboxError): number | null {
  if (err instanceof ApiError || err instanceof ToolError) return err.status;
  if (err instanceof ValidationError) return 400;
  return null;
}

/** Anything thrown, as a typed error: what is not ours is an internal error, its message redacted. */
export function typed(err: unknown, tool: string): ReplyInboxError {
  if (err instanceof ReplyInboxError) return err;
  return new ToolError('internal_error', tool, err instanceof Error ? err.message : String(err));
}

/**
 * An error's message and parameter name come from the API as much as from us: a 2 MB API
 * message once made a 3 MB tool error. Capped far below any result budget (4,096 bytes at least).
 */
const MAX_MESSAGE_CHARS = 1_000;
const MAX_PARAM_CHARS = 100;
const clipped = (s: string, max: number) => (s.length > max ? `${s.slice(0, max - 1)}… [${s.length - max + 1} more characters left out]` : s);

/** The tool error envelope of any failure; `also` is a sentence of ours after the message (today's date, for a refused day). */
export function errorBody(thrown: unknown, tool: string, also?: string): ToolErrorBody {
  const err = typed(thrown, tool);
  const message = clipped(err.message, MAX_MESSAGE_CHARS);
  const error: ToolErrorBody['error'] = { code: err.code, message: also ? `${message} ${also}` : message, status: statusOf(err) };
  if (err instanceof InvalidResponseError) return { error, next_step: invalidResponseStep(err, tool) };
  if (err instanceof ApiError || err instanceof ValidationError || err instanceof ToolError) {
    if (err.param !== undefined) error.param = clipped(err.param, MAX_PARAM_CHARS);
  }
  if (err instanceof ApiError) {
    if (err.required_scope !== undefined) error.required_scope = err.required_scope;
    if (err.retry_after !== undefined) error.retry_after = err.retry_after;
  }
  if (err instanceof BucketSpentError) {
    error.retry_after = err.retry_after;
    error.bucket = err.bucket;
    error.refill_at = err.refill_at;
  }
  const check = err instanceof OutcomeUnknownError ? err.check : undefined;
  const named = toolToCall(err.message);
  const next =
    err instanceof ToolError && err.next_step !== undefined ? err.next_step : nextStep(err.code, tool, { ...error, check, ...(named ? { named } : {}) });
  return { error, next_step: next };
}

/** An error as a tool result the model can act on: isError, the JSON body, and the next step in words. */
export function errorResult(thrown: unknown, tool: string, also?: string): CallToolResult {
  const body = errorBody(thrown, tool, also);
  return {
    isError: true,
    content: [{ type: 'text', text: `${JSON.stringify({ error: body.error })}\n${body.next_step}` }],
  };
}

/** Failures worth a person's attention in the client's log: the API or what stands behind it failed, not the call. */
const UPSTREAM_FAILURES = new Set(['upstream_error', 'internal_error', 'network_error', 'timeout', 'invalid_response']);

export function isUpstreamFailure(code: string): boolean {
  return UPSTREAM_FAILURES.has(code);
}

/**
 * MCP's code for a resource that does not exist: invalid params, as revision 2026-07-28 says
 * (2025 revisions suggested -32002; the SDK answers -32602 in both eras).
 */
export const RESOURCE_NOT_FOUND = -32602;

/** Codes of a bad request from the client's side: the arguments or the URI need fixing. */
const CLIENT_SIDE = new Set(['invalid_request', 'invalid_id', 'invalid_cursor', 'unsupported_filter', 'insufficient_scope', 'workspace_forbidden']);

/** A failed read of a resource, prompt or completion as a JSON-RPC error: the envelope and the next step ride in data. */
export function readError(err: unknown, what: string): ProtocolError {
  if (err instanceof ProtocolError) return err;
  const body = errorBody(err, what);
  const code =
    body.error.code === 'not_found' ? RESOURCE_NOT_FOUND : CLIENT_SIDE.has(body.error.code) ? ProtocolErrorCode.InvalidParams : ProtocolErrorCode.InternalError;
  return new ProtocolError(code, `${body.error.code}: ${body.error.message} ${body.next_step}`, body);
}

/** A refusal that another tool answers: its next step is that tool, never "fix the argument". */
function elsewhere(tool: string, message: string, param: string, other: string): ToolError {
  return new ToolError('invalid_request', tool, message, { status: 400, param, next_step: `${tool} cannot do this; call ${other}.` });
}

/** A tool's arguments that fail its schema, in the API's error vocabulary, naming the argument (and the tool or name that fits, when known). */
export function argumentError(tool: { name: string; input: z.ZodObject; endpoint: Endpoint }, error: z.ZodError, raw?: unknown): ReplyInboxError {
  const args = raw !== null && typeof raw === 'object' ? (raw as Record<string, unknown>) : {};
  // A misnamed argument explains the required one it left missing: it is told first.
  const misnamed = Object.keys(args).find((k) => tool.endpoint.misnamed?.[k] && !(k in tool.input.shape));
  const issue = (misnamed ? error.issues.find((i) => i.code === 'unrecognized_keys') : undefined) ?? error.issues[0]!;
  if (issue.code === 'unrecognized_keys') {
    const key = misnamed ?? String(issue.keys[0]);
    const right = tool.endpoint.misnamed?.[key];
    if (typeof right === 'string') {
      return new ToolError('invalid_request', tool.name, `Unknown argument '${key}': ${tool.name} takes this as '${right}'.`, {
        status: 400,
        param: key,
        next_step: `Pass the same value as ${right} and call ${tool.name} again.`,
      });
    }
    if (right) {
      return new ToolError('invalid_request', tool.name, `Unknown argument '${key}': ${right.note}`, {
        status: 400,
        param: key,
        next_step: `Use ${right.use} as the message says and call ${tool.name} again.`,
      });
    }
    return new ValidationError(
      'invalid_request',
      tool.name,
      `Unknown argument '${key}'. ${tool.name} takes: ${Object.keys(tool.input.shape).join(', ')}.`,
      key,
    );
  }
  const param = issue.path.map(String).join('.') || undefined;
  const top = String(issue.path[0] ?? '');
  const value = args[top];
  const other = typeof value === 'string' ? tool.endpoint.elsewhere?.[top]?.[value] : undefined;
  if (other) return elsewhere(tool.name, `Argument '${top}': ${value} is not a value ${tool.name} sets; ${other} does that.`, top, other);
  if (issue.code === 'custom' && (issue.params as { request?: boolean } | undefined)?.request) {
    return new ValidationError('invalid_request', tool.name, `Argument '${param ?? '(arguments)'}': ${issue.message}.`, param);
  }
  // A required argument left out is a bad request naming it, whatever kind of value it takes.
  const missing = issue.path.length === 1 && (raw === undefined ? /received undefined/.test(issue.message) : !(top in args));
  if (missing) return new ValidationError('invalid_request', tool.name, `Argument '${top}' is required.`, top);
  const kind = tool.endpoint.pathIds[top];
  const pathId = kind !== undefined && kind !== 'workspace';
  // As the API answers: a bad path id is a malformed id; in a body or filter, invalid_id is for
  // an id of the wrong shape or kind, while a wrong type or count of ids is invalid_request.
  const badShape = issue.code === 'invalid_format' || issue.code === 'custom';
  const code = pathId || (/_ids?$/.test(top) && badShape) ? 'invalid_id' : 'invalid_request';
  return new ValidationError(code, tool.name, `Argument '${param ?? '(arguments)'}': ${issue.message}.`, param);
}
