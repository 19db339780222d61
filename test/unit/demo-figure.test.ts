import type { CallToolResult } from '@modelcontextprotocol/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/index.js';
import { UNMETERED, sandbox } from '../../scripts/bench/lib.js';
import { DEMO_TARGET, type Step, injectionLead, rawReader, sessionShares, triageSession } from '../../scripts/bench/tokens.js';
import { inProcessServer } from '../helpers/in-process.js';

// Issue 21: the demo's triage session of `npm run bench -- --only tokens`, measured by the
// bench's own code on its sandbox: what the model reads in each form, against the raw API
// JSON of the same calls read from a second sandbox seeded alike.

let sb: Sandbox;
let rawSb: Sandbox;
let s: Awaited<ReturnType<typeof inProcessServer>>;
let steps: Step[];
beforeAll(async () => {
  sb = await sandbox(UNMETERED);
  rawSb = await sandbox(UNMETERED);
  s = await inProcessServer(sb);
  const reader = rawReader(rawSb);
  try {
    steps = await triageSession(
      async (name, args) => (await s.client.callTool({ name, arguments: args })) as CallToolResult as never,
      reader.raw,
      injectionLead(sb),
    );
  } finally {
    await reader.close();
  }
});
afterAll(async () => {
  await s?.close();
  await sb?.close();
  await rawSb?.close();
});

describe("the demo's triage session reads a small share of the raw API JSON", () => {
  it('made the six calls of the demo, each answered', () => {
    expect(steps.map((x) => x.call.split(' ')[0])).toEqual(['list_leads', 'list_leads', 'get_conversation', 'list_templates', 'render_template', 'set_status']);
    for (const x of steps) expect(x.text * x.json * x.raw, x.call).toBeGreaterThan(0);
  });
  it(`the text: at most ${DEMO_TARGET.text * 100}% of the raw API JSON`, () => {
    expect(sessionShares(steps).text, JSON.stringify(steps)).toBeLessThanOrEqual(DEMO_TARGET.text);
  });
  it(`structuredContent: at most ${DEMO_TARGET.json * 100}% of the raw API JSON`, () => {
    expect(sessionShares(steps).json, JSON.stringify(steps)).toBeLessThanOrEqual(DEMO_TARGET.json);
  });
});
