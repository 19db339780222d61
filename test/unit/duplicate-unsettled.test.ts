import { describe, expect, it } from 'vitest';
import { endpoint } from '../../src/api/endpoints.js';
import { ApiError, CancelledError, OutcomeUnknownError } from '../../src/client/errors.js';
import { errorBody } from '../../src/mcp/errors.js';
import { DUPLICATE_WINDOW_MS } from '../../src/mcp/declare/shared-args.js';
import type { ToolOutput } from '../../src/mcp/view/output.js';
import { RecentCreates, mayHaveApplied } from '../../src/mcp/writes/duplicate-guard.js';
import { MemoryRecords } from '../../src/mcp/writes/records.js';

const CREATE = endpoint('create_task');
const LIST = endpoint('list_tasks');
const ARGS = { lead_id: 'lead_1', notes: 'Call back on Tuesday', due_date: '2026-11-24' };
const CHECK = 'Check with list_tasks (workspace=acme lead_id=lead_1) whether the task exists before calling create_task again.';
const unknown = () =>
  new OutcomeUnknownError('create_task', CHECK, false, new ApiError({ status: 502, code: 'upstream_error', message: 'x', endpoint: 'create_task' }));

/** A create that settles when the test says: `sent` counts the requests it would have made. */
function gate() {
  let sent = 0;
  let settle!: (fail: unknown) => void;
  const create = () => {
    sent++;
    return new Promise<ToolOutput>((resolve, reject) => {
      settle = (fail) => (fail ? reject(fail) : resolve({ structured: { id: `task_${sent}`, object: 'task' }, text: 'created' }));
    });
  };
  return { create, sent: () => sent, settle: (fail: unknown) => settle(fail) };
}

const caught = (p: Promise<unknown>) =>
  p.then(
    () => null,
    (e: unknown) => e,
  );
const tick = () => new Promise((r) => setImmediate(r));
const made = (n: number) => async (): Promise<ToolOutput> => ({ structured: { id: `task_${n}`, object: 'task' }, text: 'created' });

describe('two identical creates in flight, the first ending outcome_unknown', () => {
  it('the second is held while the first is unresolved, then refused unsent, naming the check and allow_duplicate', async () => {
    const guard = new RecentCreates(new MemoryRecords());
    const g = gate();
    const first = caught(guard.run(CREATE, 'acme', ARGS, g.create));
    const second = caught(guard.run(CREATE, 'acme', { ...ARGS }, g.create));
    await tick();
    // Held: one request only while the first is out.
    expect(g.sent()).toBe(1);
    g.settle(unknown());
    const [a, b] = await Promise.all([first, second]);
    expect(a).toBeInstanceOf(OutcomeUnknownError);
    expect(errorBody(a, 'create_task').next_step).toBe(
      `${CHECK} Until that check, or for 10 minutes, the identical create_task call is refused unsent (duplicate_unsettled).`,
    );
    expect(g.sent()).toBe(1);
    const body = errorBody(b, 'create_task');
    expect(body.error.code).toBe('duplicate_unsettled');
    expect(body.error.message).toMatch(/^Not sent: an identical create_task call of this key ended outcome_unknown/);
    expect(body.next_step).toMatch(new RegExp(`^${CHECK.replace(/[()]/g, '\\$&')} After that read the same call is sent.*allow_duplicate: true`));
  });

  it('a twin of a create that failed plainly (nothing applied) is still sent', async () => {
    const guard = new RecentCreates(new MemoryRecords());
    let sent = 0;
    const failing = async (): Promise<ToolOutput> => {
      sent++;
      await tick();
      if (sent === 1) throw new ApiError({ status: 400, code: 'invalid_request', message: 'no', endpoint: 'create_task' });
      return { structured: { id: 'task_2' }, text: 'created' };
    };
    const first = guard.run(CREATE, 'acme', ARGS, failing).catch(() => null);
    const second = await guard.run(CREATE, 'acme', ARGS, failing);
    await first;
    expect(sent).toBe(2);
    expect(second).toEqual({ out: { structured: { id: 'task_2' }, text: 'created' } });
  });
});

describe('a create cancelled after it was sent (notifications/cancelled) is unsettled, not done with (issue 31 finding 1)', () => {
  it('the twin waiting on it and the same call sent again at once are both refused unsent', async () => {
    const guard = new RecentCreates(new MemoryRecords());
    const g = gate();
    const first = caught(guard.run(CREATE, 'acme', ARGS, g.create));
    const twin = caught(guard.run(CREATE, 'acme', ARGS, g.create));
    await tick();
    g.settle(new CancelledError('create_task', 'maybe'));
    const [a, b] = await Promise.all([first, twin]);
    const again = await caught(guard.run(CREATE, 'acme', ARGS, g.create));
    expect(g.sent()).toBe(1);
    expect(errorBody(a, 'create_task').error.code).toBe('outcome_unknown');
    expect((a as Error).message).toContain('before the call was cancelled');
    expect(errorBody(b, 'create_task').error.code).toBe('duplicate_unsettled');
    expect(errorBody(again, 'create_task').error.code).toBe('duplicate_unsettled');
  });

  it('a create cancelled before it was sent holds nothing back', async () => {
    const guard = new RecentCreates(new MemoryRecords());
    await caught(
      guard.run(CREATE, 'acme', ARGS, async () => {
        throw new CancelledError('create_task', 'no');
      }),
    );
    expect(await guard.run(CREATE, 'acme', ARGS, made(2))).toMatchObject({ out: { structured: { id: 'task_2' } } });
  });
});

describe('an unsettled create holds the identical call back until the read that settles it, or for the window', () => {
  const setup = async () => {
    let clock = 1_000_000;
    const now = () => clock;
    const guard = new RecentCreates(new MemoryRecords(now), { now });
    await caught(
      guard.run(CREATE, 'acme', ARGS, async () => {
        throw unknown();
      }),
    );
    return { guard, advance: (ms: number) => (clock += ms), now };
  };

  it('list_tasks for that lead, begun after the outcome became unknown, lets the same call be sent', async () => {
    const { guard, now, advance } = await setup();
    expect(errorBody(await caught(guard.run(CREATE, 'acme', ARGS, made(2))), 'create_task').error.code).toBe('duplicate_unsettled');
    // A read of another lead, or of another workspace, settles nothing.
    await guard.checked(LIST, 'acme', { lead_id: 'lead_2' }, now());
    await guard.checked(LIST, 'beta', { lead_id: 'lead_1' }, now());
    expect(errorBody(await caught(guard.run(CREATE, 'acme', ARGS, made(2))), 'create_task').error.code).toBe('duplicate_unsettled');
    // A read begun before the outcome was known settles nothing either.
    await guard.checked(LIST, 'acme', { lead_id: 'lead_1' }, now() - 1);
    expect(errorBody(await caught(guard.run(CREATE, 'acme', ARGS, made(2))), 'create_task').error.code).toBe('duplicate_unsettled');
    advance(1_000);
    await guard.checked(LIST, 'acme', { lead_id: 'lead_1', status: 'open' }, now());
    expect(await guard.run(CREATE, 'acme', ARGS, made(2))).toMatchObject({ out: { structured: { id: 'task_2' } } });
  });

  it('after the window the same call is sent without a check', async () => {
    const { guard, advance } = await setup();
    advance(DUPLICATE_WINDOW_MS - 1);
    expect(errorBody(await caught(guard.run(CREATE, 'acme', ARGS, made(2))), 'create_task').next_step).toContain('refused for 1 minute more');
    advance(1);
    expect(await guard.run(CREATE, 'acme', ARGS, made(2))).toMatchObject({ out: { structured: { id: 'task_2' } } });
  });

  it('allow_duplicate sends it at once', async () => {
    const { guard } = await setup();
    expect(await guard.run(CREATE, 'acme', ARGS, made(2), { always: true })).toMatchObject({ out: { structured: { id: 'task_2' } } });
  });
});

describe('one key, two server instances sharing its records (issue 31 finding 13)', () => {
  it('a create done by one answers the same call on the other with duplicate_of, sending nothing', async () => {
    const records = new MemoryRecords();
    const [a, b] = [new RecentCreates(records), new RecentCreates(records)];
    await a.run(CREATE, 'acme', ARGS, made(1));
    let sent = 0;
    const r = await b.run(CREATE, 'acme', ARGS, async () => {
      sent++;
      return made(2)();
    });
    expect(sent).toBe(0);
    expect(r).toMatchObject({ duplicateOf: { id: 'task_1', object: 'task' } });
  });

  it('the same call in flight on the other instance is refused there unsent, saying it is in flight', async () => {
    const records = new MemoryRecords();
    const [a, b] = [new RecentCreates(records), new RecentCreates(records)];
    const g = gate();
    const first = a.run(CREATE, 'acme', ARGS, g.create);
    await tick();
    const refused = await caught(b.run(CREATE, 'acme', ARGS, g.create));
    expect(g.sent()).toBe(1);
    const body = errorBody(refused, 'create_task');
    expect(body.error.code).toBe('duplicate_unsettled');
    expect(body.error.message).toMatch(/from another session or server instance, has no answer yet/);
    g.settle(null);
    await first;
    expect(await b.run(CREATE, 'acme', ARGS, g.create)).toMatchObject({ duplicateOf: { id: 'task_1' } });
    expect(g.sent()).toBe(1);
  });
});

describe('which failures may have applied a create', () => {
  it('a refusal or a call never sent did not; a redirect, a 2xx, a cancel after sending and an unreadable failure may have', () => {
    const api = (status: number, code = 'x') => new ApiError({ status, code, message: 'm', endpoint: 'create_task' });
    expect([api(400), api(404), api(409), api(422), api(429), new CancelledError('create_task', 'no')].map(mayHaveApplied)).toEqual([
      false,
      false,
      false,
      false,
      false,
      false,
    ]);
    expect(
      [api(201, 'response_too_large'), api(303, 'invalid_response'), api(408), api(502), new CancelledError('create_task', 'maybe'), new TypeError('?')].map(
        mayHaveApplied,
      ),
    ).toEqual([true, true, true, true, true, true]);
  });
});
