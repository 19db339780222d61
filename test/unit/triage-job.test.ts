import type { CallToolResult } from '@modelcontextprotocol/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/index.js';
import { UNMETERED, sandbox } from '../../scripts/bench/lib.js';
import { TRIAGE_TARGET, type TriageRun, triageJob } from '../../scripts/bench/triage.js';
import { inProcessServer } from '../helpers/in-process.js';

// Item 4 of the second agent trial: the triage job of `npm run bench -- --only triage`, on the
// bench's own sandbox, within its targets of calls and bytes in each form (not timing).

let sb: Sandbox;
let s: Awaited<ReturnType<typeof inProcessServer>>;
let run: TriageRun;
beforeAll(async () => {
  sb = await sandbox(UNMETERED);
  s = await inProcessServer(sb);
  run = await triageJob(async (name, args) => (await s.client.callTool({ name, arguments: args })) as CallToolResult as never);
});
afterAll(async () => {
  await s?.close();
  await sb?.close();
});

describe('the triage job: 10 unread replies read, set, followed up and marked read', () => {
  it(`takes at most ${TRIAGE_TARGET.calls} calls`, () => {
    expect(run.leads).toHaveLength(10);
    expect(run.calls).toBeLessThanOrEqual(TRIAGE_TARGET.calls);
  });
  it(`the model reads at most ${TRIAGE_TARGET.bytes} bytes in each form`, () => {
    expect(run.text, JSON.stringify(run.steps)).toBeLessThanOrEqual(TRIAGE_TARGET.bytes);
    expect(run.json, JSON.stringify(run.steps)).toBeLessThanOrEqual(TRIAGE_TARGET.bytes);
  });
  it('did the job: every lead read and no longer unread, 4 tasks and 2 notes on them', () => {
    for (const id of run.leads) expect(sb.store.leads.get(id)!.receipts.size).toBeGreaterThan(0);
    expect(run.steps.filter((x) => x.call.startsWith('create_task'))).toHaveLength(4);
    expect(run.steps.filter((x) => x.call.startsWith('create_note'))).toHaveLength(2);
  });
});
