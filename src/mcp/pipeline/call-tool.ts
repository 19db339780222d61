import { ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/server';
import type { Server, CallToolResult, InputRequiredResult } from '@modelcontextprotocol/server';
import type { Logger } from 'pino';
import { isWorkspaceSlug } from '../../api/ids.js';
import { ValidationError } from '../../client/errors.js';
import { confirmWrite, type ModernRound } from '../confirm/ask.js';
import type { ConfirmMode } from '../confirm/confirm.js';
import { ToolError, argumentError, errorResult, typed } from '../errors.js';
import type { InboxWatch } from '../live/inbox-watch.js';
import type { ApiCaller, ApiClient, ToolContext } from '../declare/tool-context.js';
import type { ToolDef } from '../declare/define.js';
import type { Hidden } from '../declare/registry.js';
import { itemBound } from '../declare/shared-args.js';
import { Fence } from '../view/fence.js';
import type { ToolOutput } from '../view/output.js';
import { byteLength, fitResult } from '../view/result-budget.js';
import { ownStrings } from '../view/shape.js';
import type { Continuation } from '../reads/continuation.js';
import { toolCallApi } from './api-chain.js';
import type { Deleted } from '../writes/deleted.js';
import { type RecentCreates, duplicateAnswer, isSettlingRead } from '../writes/duplicate-guard.js';
import { keepAlive } from './keep-alive.js';
import { type multiPageApi, multiPageSummary } from '../reads/multipage.js';
import { checkOutput } from './response-check.js';
import { callOwn } from '../declare/own-call.js';
import { type People, takeArgs } from './take-args.js';
import type { UserIds } from './user-ids.js';
import { nearName } from './near-name.js';
import { todayForRefusal } from './dated.js';

/** What a confirmed write keeps of the tool call's deadline for the write itself. */
export const WRITE_RESERVE_MS = 10_000;

/** A paged client: the tool's list call read page after page, and what the pages said. */
type MultiPageApi = ReturnType<typeof multiPageApi>;

/** What one tools/call request brings besides its name and arguments (the SDK's handler extra). */
export interface CallExtra {
  signal: AbortSignal;
  requestId?: string | number;
  _meta?: { progressToken?: string | number };
  // biome-ignore lint/suspicious/noExplicitAny: the SDK's notification union is wider than what is sent here
  sendNotification: (n: any) => Promise<void>;
  /** Set on a 2026-07-28 request: a confirmation is asked as input_required. */
  modern?: ModernRound;
}

/** What the call pipeline needs of the server that runs it. */
export interface CallDeps {
  /** The client, every answer checked (the chain's first layer, api-chain.ts): each call adds its own layers. */
  api: ApiClient;
  /** The key's client has closed (ApiClient.ended): a person's answer still awaited is given up. */
  ended?: AbortSignal;
  log: Logger;
  server: Server;
  tool(name: string): ToolDef | undefined;
  /** The names of the tools a client may call now. */
  toolNames(): Iterable<string>;
  hidden(): readonly Hidden[];
  workspaces(): readonly string[];
  defaultWorkspace(): string | undefined;
  userIds: UserIds;
  recentCreates: RecentCreates;
  deleted: Deleted;
  confirm: ConfirmMode;
  maxResultBytes: number;
  /** One deadline for the whole tool call, every API call and the person's answer included (ms). */
  toolDeadlineMs: number;
  now: () => number;
  inboxWatch?: InboxWatch;
  /** A call failed: notable failures are told to the client, a scope refusal re-reads the scopes. */
  failed(err: unknown, what: string): void;
}

/** The arguments as the tool's schema parsed them, with the server's own arguments taken apart. */
interface ParsedCall {
  /** Everything the caller passed, parsed: a continuation repeats these. */
  all: Record<string, unknown>;
  /** What the tool itself receives. */
  args: Record<string, unknown>;
  bound: number | undefined;
  allowDuplicate: boolean;
  /** What the parse step read otherwise than sent (take-args.ts): the answer says it. */
  notices: string[];
}

/**
 * tools/call, as a sequence of named steps: find the tool, parse its arguments, build the
 * context a tool runs in, set up paging, then run (workspace, people ids, confirmation, the
 * duplicate guard, the tool, the response check) and fit the answer to the result budget.
 * A step that refuses answers with the tool error envelope; nothing is sent before it.
 */
export async function callTool(deps: CallDeps, name: string, rawArgs: unknown, extra: CallExtra): Promise<CallToolResult | InputRequiredResult> {
  const tool = findTool(deps, name);
  if (!('name' in tool)) return tool.refused;
  // A refusal of a day or a time says what day it is today.
  const refuse = (err: unknown) => errorResult(err, name, todayForRefusal(tool.endpoint, err, deps.now(), deps.userIds.ownerTimezone));
  const parsed = parseArguments(tool, rawArgs, { ids: deps.userIds, workspace: callWorkspace(deps, tool, rawArgs) }, refuse);
  if ('refused' in parsed) return parsed.refused;
  const deadlineAt = deps.now() + deps.toolDeadlineMs;
  const progress = progressOf(extra);
  const apis = toolCallApi(deps.api, {
    endpoint: tool.endpoint,
    deadlineMs: deps.toolDeadlineMs,
    deadlineAt,
    now: deps.now,
    bound: parsed.bound,
    signal: extra.signal,
    onPage: (n, total, message) => void progress(n, total, message),
  });
  const { paging, cont } = apis;
  const ctx = toolContext(deps, tool, extra, apis.tool, progress);
  // A multi-page read reports its own progress, page by page.
  const stopKeepAlive = extra._meta?.progressToken !== undefined && !paging ? keepAlive((n, message) => progress(n, undefined, message)) : undefined;
  try {
    // A multi-page read goes on a page at a time while its whole answer fits: no page is read that the budget cannot show.
    for (;;) {
      const outcome = await runTool(deps, tool, parsed, { ctx, question: apis.question, extra, deadlineAt });
      if ('refused' in outcome) return outcome.refused;
      const answer = await fitAnswer(deps, tool, parsed, outcome, { ctx, cont, paging, signal: extra.signal });
      if (answer.cut || !(await paging?.readMore())) return answer.result;
    }
  } catch (err) {
    deps.log.debug({ tool: name, code: typed(err, name).code }, 'tool call failed');
    deps.failed(err, name);
    return refuse(err);
  } finally {
    stopKeepAlive?.();
  }
}

/** The enabled tool of that name; a hidden one answers why it is hidden; an unknown name is a protocol error that names the likely one. */
function findTool(deps: CallDeps, name: string): ToolDef | { refused: CallToolResult } {
  const tool = deps.tool(name);
  if (tool) return tool;
  const h = deps.hidden().find((x) => x.name === name);
  if (h && h.reason !== 'not_selected') {
    const code = h.reason === 'scope' ? 'insufficient_scope' : 'read_only';
    // What the person can do about it: retrying or another guess at the tool will not help.
    const next_step =
      h.reason === 'scope'
        ? `This key lacks the scope ${h.scope}: only a key with it can; tell the person. tools/list shows what this key can do.`
        : 'This server runs read-only: it makes no change. Tell the person what you meant to change.';
    const refusal = new ToolError(code, name, `${name} is not available: ${h.detail}.`, { next_step });
    return { refused: errorResult(refusal, name) };
  }
  const near = nearName(name, deps.toolNames());
  throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Unknown tool: ${name}.${near ? ` Did you mean ${near}?` : ''} tools/list names every tool.`);
}

/** The tool's strict schema over the arguments; max_items, all and allow_duplicate are the server's, not the tool's. */
function parseArguments(tool: ToolDef, rawArgs: unknown, people: People, refuse: (err: unknown) => CallToolResult): ParsedCall | { refused: CallToolResult } {
  // A "__proto__" key, once parsed, becomes the arguments' prototype: refuse it like any unknown argument.
  if (rawArgs !== null && typeof rawArgs === 'object' && ![Object.prototype, null].includes(Object.getPrototypeOf(rawArgs))) {
    return { refused: refuse(new ValidationError('invalid_request', tool.name, "Unknown argument '__proto__'.", '__proto__')) };
  }
  let taken: ReturnType<typeof takeArgs>;
  try {
    taken = takeArgs(tool, rawArgs ?? {}, people);
  } catch (err) {
    return { refused: refuse(err) };
  }
  const parsed = tool.input.safeParse(taken.args);
  if (!parsed.success) return { refused: refuse(argumentError(tool, parsed.error, taken.args)) };
  const all = parsed.data as Record<string, unknown>;
  const {
    max_items,
    all: everything,
    allow_duplicate,
    ...rest
  } = all as Record<string, unknown> & {
    max_items?: number;
    all?: boolean;
    allow_duplicate?: boolean;
  };
  return {
    all,
    args: tool.multiPage || tool.guarded ? rest : all,
    bound: tool.multiPage ? itemBound({ max_items, all: everything }) : undefined,
    allowDuplicate: allow_duplicate === true,
    notices: taken.notices,
  };
}

/** The workspace a call names, or the server's default, before its arguments are parsed (for people ids); null when it has none. */
function callWorkspace(deps: CallDeps, tool: ToolDef, rawArgs: unknown): string | null {
  if (!('workspace' in tool.endpoint.pathIds)) return null;
  const named = rawArgs !== null && typeof rawArgs === 'object' ? (rawArgs as { workspace?: unknown }).workspace : undefined;
  return isWorkspaceSlug(named) ? named : named === undefined ? (deps.defaultWorkspace() ?? null) : null;
}

/** Progress of this call, told to a client that asked for it (a progress token); nothing otherwise. */
function progressOf(extra: CallExtra): ToolContext['progress'] {
  const progressToken = extra._meta?.progressToken;
  return async (done, total, message) => {
    if (progressToken === undefined) return;
    await extra.sendNotification({
      method: 'notifications/progress',
      params: { progressToken, progress: done, ...(total !== undefined ? { total } : {}), ...(message ? { message } : {}) },
    });
  };
}

/** What a tool's run receives: the API through the call's chain, the workspace rule, the fence of this answer and progress. */
function toolContext(deps: CallDeps, tool: ToolDef, extra: CallExtra, api: ApiCaller, progress: ToolContext['progress']): ToolContext {
  const name = tool.name;
  return {
    endpoint: tool.endpoint,
    ...(tool.did ? { did: tool.did } : {}),
    api,
    signal: extra.signal,
    clock: { now: deps.now },
    fence: new Fence(),
    log: deps.log,
    workspace: (a) => {
      const ws = a.workspace ?? deps.defaultWorkspace();
      if (ws) return ws;
      const reached = deps.workspaces().join(', ') || 'no workspace';
      throw new ValidationError(
        'invalid_request',
        name,
        `Pass workspace: this key reaches ${reached} and the server has no default (--workspace).`,
        'workspace',
      );
    },
    progress,
  };
}

/** The tool's answer once the workspace is known, people ids are mapped and the person agreed; or the refusal. */
async function runTool(
  deps: CallDeps,
  tool: ToolDef,
  parsed: ParsedCall,
  call: { ctx: ToolContext; question: ApiCaller; extra: CallExtra; deadlineAt: number },
): Promise<(ToolOutput & { args: Record<string, unknown> }) | { refused: CallToolResult | InputRequiredResult }> {
  const { ctx, extra, deadlineAt } = call;
  const workspace = 'workspace' in tool.endpoint.pathIds ? ctx.workspace(parsed.args) : null;
  const args = deps.userIds.map(tool.name, tool.userIds, workspace, parsed.args, parsed.notices);
  const refused = await confirmWrite(deps.server, {
    mode: deps.confirm,
    tool,
    args,
    api: call.question,
    workspace,
    signal: extra.signal,
    ...(deps.ended ? { ended: deps.ended } : {}),
    requestId: extra.requestId,
    // The person's answer is waited for within the tool call's deadline, leaving time for the write itself.
    answerWithinMs: Math.max(1_000, deadlineAt - WRITE_RESERVE_MS - deps.now()),
    ...(extra.modern ? { modern: extra.modern } : {}),
  });
  if (refused) return { refused: refused instanceof ToolError ? errorResult(refused, tool.name) : refused };
  const run = () => (tool.run ? tool.run(ctx, args) : runGeneric(ctx, tool, args));
  const made = await withWriteRecords(deps, tool, workspace, args, parsed.allowDuplicate, run);
  const out = workspace ? withUserIds(deps.userIds, tool, workspace, made) : made;
  if (tool.endpoint.write && workspace) deps.inboxWatch?.touched(workspace, leadIdsOf(args));
  checkOutput(tool.endpoint, tool.output, out.structured);
  return { ...out, args };
}

/** A read of members shows each one's user id beside its member id (the server's addition, user-ids.ts). */
function withUserIds(ids: UserIds, tool: ToolDef, workspace: string, out: ToolOutput): ToolOutput {
  const e = tool.endpoint;
  if (e.resource !== 'member' || e.returns !== 'list' || e.write || out.text !== undefined || out.render) return out;
  return { ...out, structured: { ...out.structured, data: ids.withUserIds(workspace, out.structured.data) } };
}

/**
 * The key's write records around the tool's run (writes/), where they apply: a guarded create
 * runs unless an identical one of this key succeeded lately, is unsettled or in flight; a delete
 * remembers what it deleted; a read that settles an unsettled create says it was made. Any
 * other tool just runs.
 */
async function withWriteRecords(
  deps: CallDeps,
  tool: ToolDef,
  workspace: string | null,
  args: Record<string, unknown>,
  allowDuplicate: boolean,
  run: () => Promise<ToolOutput>,
): Promise<ToolOutput> {
  const e = tool.endpoint;
  if (tool.guarded) {
    const r = await deps.recentCreates.run(e, workspace, args, run, { always: allowDuplicate });
    return 'out' in r ? r.out : duplicateAnswer(tool.name, r.duplicateOf, r.secondsAgo);
  }
  if (e.method === 'DELETE') return deps.deleted.run(e, { ...args, workspace }, run);
  if (!isSettlingRead(e)) return run();
  const startedAt = deps.now();
  const out = await run();
  await deps.recentCreates.checked(e, workspace, args, startedAt);
  return out;
}

/** Both forms within the budget, cut at an item when they must be (cut says so); what the agent wrote itself is not fenced. */
async function fitAnswer(
  deps: CallDeps,
  tool: ToolDef,
  parsed: ParsedCall,
  out: ToolOutput & { args: Record<string, unknown> },
  run: { ctx: ToolContext; cont: Continuation; paging: MultiPageApi | null; signal: AbortSignal },
): Promise<{ result: CallToolResult; cut: boolean }> {
  const read = run.paging?.envelope();
  const notes = noticesOf(parsed.notices);
  const shown = await fitResult(out, {
    budget: deps.maxResultBytes - notes.bytes,
    fence: run.ctx.fence,
    own: new Set([...(tool.endpoint.write ? ownStrings(out.args) : []), ...(out.own ?? [])]),
    suffix: read ? multiPageSummary(read) : undefined,
    tool: tool.name,
    rest: async (kept, total) => {
      if (out.items?.rest) return out.items.rest(kept, total);
      const cursor = await run.cont.cursorAfter(kept, run.signal);
      // A bounded read goes on for what is left of its bound, from the first item not shown.
      const bound = typeof parsed.all.max_items === 'number' ? { max_items: parsed.all.max_items - kept } : {};
      return cursor ? { ...parsed.all, cursor, ...bound } : null;
    },
  });
  const result = {
    content: [{ type: 'text' as const, text: `${shown.text}${notes.text}` }, ...(out.extraContent ?? [])],
    structuredContent: parsed.notices.length ? { ...shown.structured, notices: parsed.notices } : shown.structured,
  };
  return { result, cut: 'left_out' in shown.structured };
}

/** The notices of a call as text lines after the answer, and the bytes they take in either form. */
function noticesOf(notices: readonly string[]): { text: string; bytes: number } {
  if (notices.length === 0) return { text: '', bytes: 0 };
  const text = notices.map((n) => `\nNote: ${n}`).join('');
  return { text, bytes: Math.max(byteLength(text), byteLength(JSON.stringify({ notices }))) };
}

/** The leads a write names (lead_id, lead_ids): subscribers of those leads hear of the change at once. */
function leadIdsOf(args: Record<string, unknown>): string[] {
  const ids = [args.lead_id, ...(Array.isArray(args.lead_ids) ? args.lead_ids : [])];
  return ids.filter((id): id is string => typeof id === 'string');
}

/** Most tools: call the endpoint with the arguments split by the table, return its answer as is. */
async function runGeneric(ctx: ToolContext, tool: ToolDef, args: Record<string, unknown>): Promise<ToolOutput> {
  const r = await callOwn(ctx, args, tool.extraArgs);
  const data = r.data;
  const structured = r.cachedAgeSeconds !== undefined ? { ...data, cached_age_seconds: r.cachedAgeSeconds } : data;
  return { structured };
}
