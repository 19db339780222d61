import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Sandbox, SANDBOX_KEYS, startSandbox } from '../../src/sandbox/index.js';
import { TOOL_ENDPOINTS } from '../../src/api/endpoints.js';
import { TEST_NOW } from '../../scripts/harness/sandbox.js';
import {
  type FuzzReport,
  type Relay,
  type Session,
  endpointOf,
  fuzzCase,
  fuzzTools,
  hostileIds,
  inputValidator,
  prefixFor,
  secretsIn,
  startRelay,
  startSession,
} from '../../scripts/harness/reliability/helpers.js';

/**
 * Property-based fuzzing of every tool's arguments, generated from the input schema that
 * tools/list publishes, against a sandbox behind a relay that records every request. The
 * published schema (checked with the SDK's own JSON Schema validator) is the oracle for
 * "refused": nothing may reach the API for arguments it refuses.
 */
const RUNS_PER_TOOL = 40;
let sandbox: Sandbox;
let relay: Relay;
let s: Session;

beforeAll(async () => {
  sandbox = await startSandbox({
    port: 0,
    now: TEST_NOW,
    logLevel: 'silent',
    leads: 120,
    rateWindowMs: 1000,
    bucketLimits: { read: 100_000, write: 100_000, upstream: 100_000, thread: 100_000 },
  });
  relay = await startRelay(sandbox.baseUrl);
  s = await startSession(['--workspace', 'acme', '--log-level', 'warn'], { REPLY_INBOX_API_KEY: SANDBOX_KEYS.admin, REPLY_INBOX_BASE_URL: relay.url });
});
afterAll(async () => {
  await s?.close();
  await relay?.close();
  await sandbox?.close();
});

const fresh = (): FuzzReport => ({ cases: 0, refusedBySchema: 0, reachedApi: 0, failures: [] });
const tool = (name: string) => {
  const t = s.tools.find((x) => x.name === name);
  if (!t) throw new Error(`no tool ${name}`);
  return t;
};

describe("Fuzz: every tool's arguments (wrong types, huge strings, unicode, wrong-kind ids, path characters, out-of-range numbers, extra keys)", () => {
  let report: FuzzReport;

  it(`${RUNS_PER_TOOL} generated argument sets per tool: every call answered cleanly, nothing sent for what the schema refuses, no path escapes its endpoint`, async () => {
    report = await fuzzTools(s, relay, { runs: RUNS_PER_TOOL, seed: 20261120 });
    expect(report.failures).toEqual([]);
    expect(report.cases).toBe(RUNS_PER_TOOL * s.tools.length);
  }, 120_000);

  it('the generators reach both sides: most cases are refused by the schema, some reach the API with strange but valid content', () => {
    expect(report.refusedBySchema).toBeGreaterThan(report.cases / 2);
    expect(report.reachedApi).toBeGreaterThan(30);
  });

  it("every request the relay saw matches one endpoint's path template with valid ids, and only known query keys", () => {
    const stray = relay.seen.filter((x) => endpointOf(x.method, x.url) === null).map((x) => `${x.method} ${x.url}`);
    expect(relay.seen.length).toBeGreaterThan(30);
    expect(stray).toEqual([]);
  });

  it('the binary survived the run and kept its logs free of key secrets', async () => {
    expect(s.alive()).toBe(true);
    expect((await s.client.listTools()).tools).toHaveLength(TOOL_ENDPOINTS.length);
    expect(secretsIn(s.stderr())).toEqual({});
  });
});

describe('Fuzz: path characters in ids (../, %2F, ?, #, control characters) and ids of the wrong kind never reach a path', () => {
  it('every path id of every tool, with every trick: refused as invalid_id naming the argument, no request sent', async () => {
    const report = fresh();
    let checked = 0;
    for (const t of s.tools) {
      const valid = inputValidator(t.inputSchema);
      const props = (t.inputSchema.properties ?? {}) as Record<string, { pattern?: string; type?: string }>;
      const required = t.inputSchema.required ?? [];
      const pathIds = Object.entries(props).flatMap(([name, p]) => {
        const prefix = required.includes(name) && p.type === 'string' ? prefixFor(name, p) : null;
        return prefix ? [[name, prefix] as const] : [];
      });
      for (const [name, prefix] of pathIds) {
        for (const id of hostileIds(prefix)) {
          const before = relay.seen.length;
          await fuzzCase(s, relay, t, valid, { [name]: id }, report);
          expect(relay.seen.length).toBe(before);
          checked++;
        }
      }
    }
    expect(report.failures).toEqual([]);
    expect(checked).toBeGreaterThan(500);
  }, 60_000);

  it('a workspace slug with path characters is refused before any request, naming workspace', async () => {
    for (const ws of ['../', 'acme/../globex', 'acme%2F..', 'acme?x=1', 'acme#', 'ACME', 'acme\n', '']) {
      const before = relay.seen.length;
      const out = await s.call('list_members', { workspace: ws });
      expect(relay.seen.length).toBe(before);
      expect(out.kind).toBe('tool_error');
      if (out.kind === 'tool_error') expect(out.error).toMatchObject({ code: 'invalid_request', param: 'workspace' });
    }
  });

  it('a valid-looking lead id with a strange tail still goes out encoded inside its one segment', async () => {
    const before = relay.seen.length;
    const out = await s.call('get_lead', { lead_id: 'lead_doesnotexist' });
    expect(out.kind).toBe('tool_error');
    if (out.kind === 'tool_error') expect(out.error).toMatchObject({ code: 'not_found', status: 404 });
    const sent = relay.seen.slice(before);
    expect(sent.map((x) => endpointOf(x.method, x.url)?.name)).toEqual(['get_lead']);
  });
});

describe('Fuzz: resource URIs with path characters in their variables never reach a path either', () => {
  it('resources/read of a lead and a conversation with every trick, raw and percent-encoded: answered, and every request stays inside its endpoint', async () => {
    const before = relay.seen.length;
    const vars = [...hostileIds('lead_'), '..', '%2e%2e', 'lead_abc%2F..%2F..%2Fme'];
    let answered = 0;
    for (const v of vars) {
      for (const id of [v, encodeURIComponent(v)]) {
        for (const uri of [`inbox://acme/leads/${id}`, `inbox://acme/leads/${id}/conversation`, `inbox://${id}/playbook`, `inbox://${id}/members`]) {
          await s.client.readResource({ uri }).then(
            () => answered++,
            (e: unknown) => {
              expect((e as { code?: number }).code, uri).toBeTypeOf('number');
              answered++;
            },
          );
        }
      }
    }
    expect(answered).toBe(vars.length * 8);
    const sent = relay.seen.slice(before);
    expect(sent.filter((x) => endpointOf(x.method, x.url) === null).map((x) => x.url)).toEqual([]);
    expect(s.alive()).toBe(true);
  });
});

describe('Fuzz: extra keys and prototype names are unknown arguments', () => {
  it('constructor, toString, a near-miss key and sort_by are refused as invalid_request naming the key, nothing sent', async () => {
    const t = tool('create_note');
    const valid = inputValidator(t.inputSchema);
    for (const key of ['constructor', 'toString', 'lead_id ', 'sort_by']) {
      const args = { lead_id: 'lead_abc', body: 'hi', [key]: { polluted: true } };
      expect(valid(args)).toBe(false);
      const before = relay.seen.length;
      const out = await s.call('create_note', args);
      expect(relay.seen.length).toBe(before);
      expect(out.kind).toBe('tool_error');
      if (out.kind === 'tool_error') expect(out.error).toMatchObject({ code: 'invalid_request', param: key });
    }
  });

  it('a __proto__ argument is refused as invalid_request naming it, at the top or nested: nothing sent, nothing polluted', async () => {
    const before = relay.seen.length;
    for (const raw of ['{"__proto__":{"workspace":"globex","include":["sdr_notes"],"polluted":true}}', '{"include":[{"__proto__":{"polluted":true}}]}']) {
      const out = await s.call('get_workspace', JSON.parse(raw) as Record<string, unknown>);
      expect(out.kind).toBe('tool_error');
      if (out.kind === 'tool_error') expect(out.error).toMatchObject({ code: 'invalid_request', param: '__proto__' });
    }
    expect(relay.seen.slice(before)).toEqual([]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});
