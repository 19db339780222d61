import { describe, expect, it } from 'vitest';
import { ApiError, OutcomeUnknownError } from '../../src/client/errors.js';
import { errorBody } from '../../src/mcp/errors.js';
import { RecentCreates } from '../../src/mcp/pipeline/duplicate-guard.js';
import type { ToolOutput } from '../../src/mcp/view/output.js';

const ARGS = { lead_id: 'lead_1', notes: 'Call back on Tuesday', due_date: '2026-11-24' };
const CHECK = 'Check with list_tasks (workspace=acme lead_id=lead_1) whether the task exists before calling create_task again.';
const unknown = () =>
  new OutcomeUnknownError('create_task', CHECK, false, new ApiError({ status: 502, code: 'upstream_error', message: 'x', endpoint: 'create_task' }));

/** A create that settles when the test says: `sent` counts the requests it would have made. */
function gate() {
  let sent = 0;
  let settle!: (fail: boolean) => void;
  const create = () => {
    sent++;
    return new Promise<ToolOutput>((resolve, reject) => {
      settle = (fail) => (fail ? reject(unknown()) : resolve({ structured: { id: `task_${sent}` }, text: 'created' }));
    });
  };
  return { create, sent: () => sent, settle: (fail: boolean) => settle(fail) };
}

describe('two identical creates in flight, the first ending outcome_unknown', () => {
  it('the second is held while the first is unresolved, then refused unsent, naming the check and allow_duplicate', async () => {
    const guard = new RecentCreates();
    const g = gate();
    const first = guard.run('create_task', 'acme', ARGS, g.create).then(
      () => null,
      (e: unknown) => e,
    );
    const second = guard.run('create_task', 'acme', { ...ARGS }, g.create).then(
      () => null,
      (e: unknown) => e,
    );
    await new Promise((r) => setImmediate(r));
    // Held: one request only while the first is out.
    expect(g.sent()).toBe(1);
    g.settle(true);
    const [a, b] = await Promise.all([first, second]);
    expect(a).toBeInstanceOf(OutcomeUnknownError);
    expect(g.sent()).toBe(1);
    const body = errorBody(b, 'create_task');
    expect(body.error.code).toBe('duplicate_unsettled');
    expect(body.error.message).toMatch(/^Not sent: an identical create_task call in flight.*ended outcome_unknown/);
    expect(body.next_step).toBe(`${CHECK} Pass allow_duplicate: true to create another on purpose.`);
  });

  it('a twin of a create that failed plainly (nothing applied) is still sent', async () => {
    const guard = new RecentCreates();
    let sent = 0;
    const failing = async (): Promise<ToolOutput> => {
      sent++;
      await new Promise((r) => setImmediate(r));
      if (sent === 1) throw new ApiError({ status: 400, code: 'invalid_request', message: 'no', endpoint: 'create_task' });
      return { structured: { id: 'task_2' }, text: 'created' };
    };
    const first = guard.run('create_task', 'acme', ARGS, failing).catch(() => null);
    const second = await guard.run('create_task', 'acme', ARGS, failing);
    await first;
    expect(sent).toBe(2);
    expect(second.out.structured.id).toBe('task_2');
  });
});
