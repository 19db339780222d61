import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Target, notPassed, runSuite, startTarget } from '../../scripts/harness/conformance.js';

/*
 * The MCP conformance suite (@modelcontextprotocol/conformance, Node 22) against the built
 * server. Registry project: on Node 20 the suite's Node comes from the npm registry.
 * The scenarios the suite fails are those that call its own fixtures (tools such as
 * test_simple_text, prompts, resources of its reference server): ours has none of them.
 */

describe('DNS-rebinding protection: the dns-rebinding-protection scenario passes (key mode)', () => {
  let target: Target;
  beforeAll(async () => {
    target = await startTarget('key');
  }, 120_000);
  afterAll(() => target.close());

  it('a foreign Host/Origin is refused with 4xx and a localhost Host/Origin is accepted with 2xx', async () => {
    const r = await runSuite(target.url, 'dns-rebinding-protection');
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
    for (let i = 0; i < 4; i++) runs.push(await runSuite(target.url));
    const first = runs[0]!;
    const passed = (r: typeof first) =>
      Object.values(r.results)
        .flat()
        .filter((c) => c.status === 'SUCCESS').length;
    // The active suite has 30 scenarios; the server and lifecycle checks among them pass.
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
