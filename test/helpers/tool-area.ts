import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENDPOINT_BY_NAME, type Toolset } from '../../src/api/endpoints.js';
import { type Sandbox, SANDBOX_KEYS, startSandbox } from '../../src/sandbox/index.js';
import { SPECIAL_EMAILS } from '../../src/sandbox/seed/leads.js';
import type { Store } from '../../src/sandbox/store/store.js';
import { withoutFence } from '../../scripts/harness/reliability/scan.js';
import { type Relay, startRelay } from '../../scripts/harness/relay.js';
import { TEST_NOW } from '../../scripts/harness/sandbox.js';
import { type InProcessSession, inProcessCli } from './in-process.js';
import { callErr, callOk, type Ok, toolNames } from './tool-calls.js';

/**
 * The bench of one area's tool tests (tools/<area>.test.ts, beside tools/<area>.ts): a sandbox
 * of this process behind a counting relay (its request log says whether a call reached the API
 * at all) and the server the binary builds (test/helpers/in-process.ts), served in this process
 * with the admin key, and with the rep key on request. No build and no child process.
 * Its fields are filled in by the file's beforeAll; tests read them when they run.
 */
export interface ToolArea {
  readonly name: Toolset;
  sandbox: Sandbox;
  proxy: Relay;
  admin: InProcessSession;
  /** The rep key's session (only with `{ rep: true }`). */
  rep: InProcessSession;
  /** Ordinary active leads of acme (no special seed case), found through list_leads as a model would. */
  leads: any[];
  store(): Store;
  /** A call with valid arguments that must succeed; counted for the area's coverage check. */
  ok(name: string, args?: Record<string, unknown>, s?: InProcessSession): Promise<Ok>;
  /** An ordinary lead no other write of the file has taken, so writes never meet. */
  take(): string;
  /** The tools called through ok(). */
  readonly called: ReadonlySet<string>;
}

/** One invalid call: wrong id kind, unknown argument, out-of-range number or wrong type. */
export type InvalidCall = [tool: string, args: Record<string, unknown>, code: string, param: string];

const special = new Set<string>(Object.values(SPECIAL_EMAILS));

/** The bench's state; the file's beforeAll fills in the sessions. */
class Bench implements ToolArea {
  sandbox!: Sandbox;
  proxy!: Relay;
  admin!: InProcessSession;
  rep!: InProcessSession;
  leads: any[] = [];
  readonly called = new Set<string>();
  private next = 20;
  constructor(readonly name: Toolset) {}
  store(): Store {
    return this.sandbox.store;
  }
  async ok(name: string, args: Record<string, unknown> = {}, s: InProcessSession = this.admin): Promise<Ok> {
    const r = await callOk(s, name, args);
    this.called.add(name);
    return r;
  }
  take(): string {
    const l = this.leads[this.next++];
    if (!l) throw new Error('ran out of leads');
    return l.id;
  }
}

/** Starts the bench for this file (beforeAll) and ends it (afterAll). */
export function toolArea(area: Toolset, options: { rep?: boolean } = {}): ToolArea {
  const t = new Bench(area);
  beforeAll(async () => {
    t.sandbox = await startSandbox({ port: 0, now: TEST_NOW, logLevel: 'silent' });
    t.proxy = await startRelay(t.sandbox.baseUrl);
    const admin = inProcessCli(['--api-key', SANDBOX_KEYS.admin, '--base-url', t.proxy.url, '--workspace', 'acme', '--log-level', 'silent']);
    const rep = options.rep ? inProcessCli(['--log-level', 'silent'], { REPLY_INBOX_API_KEY: SANDBOX_KEYS.rep, REPLY_INBOX_BASE_URL: t.proxy.url }) : undefined;
    t.admin = await admin;
    if (rep) t.rep = await rep;
    // Two fields of 200 leads fit the result budget; 200 whole records would not.
    const all = await callOk(t.admin, 'list_leads', { limit: 200, fields: ['email', 'state'] });
    t.leads = all.structured.data.filter((l: any) => !special.has(withoutFence(l.email)) && l.state === 'active');
  });
  afterAll(async () => {
    await Promise.all([t.admin?.close(), t.rep?.close()]);
    await t.proxy?.close();
    await t.sandbox?.close();
  });
  return t;
}

/** The first row's id of a list tool, for a test that needs one object of a kind (not counted as coverage). */
export async function firstId(t: ToolArea, tool: string, args: Record<string, unknown> = {}): Promise<string> {
  return (await callOk(t.admin, tool, args)).structured.data[0].id;
}

/** The tools the server serves in this area, sorted. */
async function areaTools(t: ToolArea): Promise<string[]> {
  return (await toolNames(t.admin)).filter((n) => ENDPOINT_BY_NAME.get(n)?.toolset === t.name);
}

/**
 * The closing checks of an area's file, declared after its valid calls: every tool of the area
 * was called with valid arguments, and each has one invalid call, which is a tool error naming
 * the argument and never reaches the API.
 */
export function everyToolCovered(t: ToolArea, invalid: InvalidCall[]): void {
  describe(`Coverage: every ${t.name} tool was called with valid arguments`, () => {
    it(`every ${t.name} tool of tools/list is among the calls above`, async () => {
      expect([...t.called].sort()).toEqual(await areaTools(t));
    });
  });
  describe('Arguments the published schema refuses are a tool error naming the argument, and never reach the API', () => {
    it(`the table covers every ${t.name} tool once`, async () => {
      expect(invalid.map(([tool]) => tool).sort()).toEqual(await areaTools(t));
    });
    it.each(invalid)('%s %j → %s on %s', async (tool, args, code, param) => {
      const before = t.proxy.requests.length;
      const e = await callErr(t.admin, tool, args);
      expect(e.error.code).toBe(code);
      expect(e.error.param).toBe(param);
      expect(e.error.status).toBe(400);
      expect(e.error.message.length).toBeGreaterThan(0);
      expect(e.nextStep).toMatch(/\S.*\.$/);
      expect(t.proxy.requests.slice(before)).toEqual([]);
    });
  });
}
