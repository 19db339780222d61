import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Results, type Selection, type Target, notPassed, runSuite, startTarget } from '../../scripts/harness/conformance.js';

/*
 * The MCP conformance suite (@modelcontextprotocol/conformance 0.2.0-alpha.12, on Node 22)
 * against the built server over HTTP. Registry project: on Node 20 the suite's Node comes from
 * the npm registry. The scenarios the suite fails are those that call its own fixtures (tools
 * such as test_simple_text, prompts and test:// resources of its reference server): ours has
 * none of them. docs/deploy.md ("Conformance, both protocol eras") lists them and why.
 */

/** The scenarios that call none of the suite's fixtures, per protocol revision: every check of each passes. */
const PASS_2026 = [
  'caching',
  'dns-rebinding-protection',
  'http-header-validation',
  'input-required-result-unsupported-methods',
  'input-required-result-validate-input',
  'prompts-list',
  'resources-list',
  'sep-2164-resource-not-found',
  'server-sse-multiple-streams',
  'tools-list',
];
const PASS_2025 = [
  'dns-rebinding-protection',
  'logging-set-level',
  'ping',
  'prompts-list',
  'resources-list',
  'server-initialize',
  'server-session-lifecycle',
  'server-sse-multiple-streams',
  'tools-list',
];
/** The scenarios that call the suite's fixtures (docs/deploy.md says which, and why they are not run to pass here). */
const CALL_TOOLS = [
  'tools-call-audio',
  'tools-call-embedded-resource',
  'tools-call-error',
  'tools-call-image',
  'tools-call-mixed-content',
  'tools-call-simple-text',
  'tools-call-with-progress',
];
const GET_PROMPTS = ['completion-complete', 'prompts-get-embedded-resource', 'prompts-get-simple', 'prompts-get-with-args', 'prompts-get-with-image'];
const READ_RESOURCES = ['resources-read-binary', 'resources-read-text', 'resources-templates-read'];
const FIXTURES_2026 = [
  ...CALL_TOOLS,
  ...GET_PROMPTS,
  ...READ_RESOURCES,
  'http-custom-header-server-validation',
  'input-required-result-basic-elicitation',
  'input-required-result-basic-list-roots',
  'input-required-result-basic-sampling',
  'input-required-result-capability-check',
  'input-required-result-ignore-extra-params',
  'input-required-result-missing-input-response',
  'input-required-result-multi-round',
  'input-required-result-multiple-input-requests',
  'input-required-result-non-tool-request',
  'input-required-result-request-state',
  'input-required-result-result-type',
  'input-required-result-tampered-state',
  'json-schema-2020-12',
  'server-stateless',
];
const FIXTURES_2025 = [
  ...CALL_TOOLS,
  ...GET_PROMPTS,
  ...READ_RESOURCES,
  'elicitation-sep1034-defaults',
  'elicitation-sep1330-enums',
  'resources-subscribe',
  'resources-unsubscribe',
  'tools-call-elicitation',
  'tools-call-sampling',
  'tools-call-with-logging',
];

const passedScenarios = (results: Results) =>
  Object.entries(results)
    .filter(([, checks]) => checks.length > 0 && checks.every((c) => c.status === 'SUCCESS'))
    .map(([scenario]) => scenario)
    .sort();

describe.each([
  { era: '2026-07-28', select: { suite: 'all', specVersion: '2026-07-28' }, pass: PASS_2026, fixtures: FIXTURES_2026 },
  { era: '2025-11-25', select: { specVersion: '2025-11-25' }, pass: PASS_2025, fixtures: FIXTURES_2025 },
] as { era: string; select: Selection; pass: string[]; fixtures: string[] }[])('Conformance at revision $era (token mode)', ({ select, pass, fixtures }) => {
  let target: Target;
  beforeAll(async () => {
    target = await startTarget('token');
  }, 120_000);
  afterAll(() => target.close());

  it(`every scenario that calls none of the suite's fixtures passes (${pass.length})`, async () => {
    const r = await runSuite(target.url, select);
    // The suite ran what it runs at this revision, no more and no less: a scenario it adds is sorted into one list or the other.
    expect(Object.keys(r.results).sort(), r.log).toEqual([...pass, ...fixtures].sort());
    const failed = notPassed(Object.fromEntries(pass.map((s) => [s, r.results[s]!])));
    expect(failed, r.log).toEqual([]);
    expect(passedScenarios(r.results)).toEqual([...pass].sort());
  }, 300_000);
});

describe('DNS-rebinding protection: the dns-rebinding-protection scenario passes (key mode)', () => {
  let target: Target;
  beforeAll(async () => {
    target = await startTarget('key');
  }, 120_000);
  afterAll(() => target.close());

  it('a foreign Host/Origin is refused with 4xx and a localhost Host/Origin is accepted with 2xx', async () => {
    const r = await runSuite(target.url, { scenario: 'dns-rebinding-protection' });
    expect(r.code, r.log).toBe(0);
    expect(
      Object.values(r.results)
        .flat()
        .map((c) => [c.id, c.status])
        .sort(),
    ).toEqual([
      ['localhost-host-rebinding-rejected', 'SUCCESS'],
      ['localhost-host-valid-accepted', 'SUCCESS'],
    ]);
  }, 300_000);
});

describe('Sessions that cannot be hoarded: four back-to-back runs that never close a session pass alike (token mode)', () => {
  let target: Target;
  beforeAll(async () => {
    target = await startTarget('token');
  }, 120_000);
  afterAll(() => target.close());

  it('every run passes the same checks as the first, and none meets a full session table', async () => {
    const runs = [];
    for (let i = 0; i < 4; i++) runs.push(await runSuite(target.url, { specVersion: '2025-11-25' }));
    const first = runs[0]!;
    const passed = (r: typeof first) =>
      Object.values(r.results)
        .flat()
        .filter((c) => c.status === 'SUCCESS').length;
    // The active suite has 31 scenarios at 2025-11-25; the server and lifecycle checks among them pass.
    expect(Object.keys(first.results).length).toBeGreaterThanOrEqual(30);
    expect(passed(first)).toBeGreaterThanOrEqual(10);
    for (const r of runs.slice(1)) {
      expect(notPassed(r.results)).toEqual(notPassed(first.results));
      expect(passed(r)).toBe(passed(first));
    }
    // More sessions were opened than the table holds (100): the least recently used idle ones made room.
    expect(runs.map((r) => r.log).join('\n')).not.toContain('maximum of 100 MCP sessions');
  }, 600_000);
});
