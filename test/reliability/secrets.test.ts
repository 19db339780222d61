import { createServer } from 'node:http';
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SANDBOX_KEYS, type SandboxKeyName } from '../../src/sandbox/index.js';
import { buildStore } from '../../src/sandbox/seed/index.js';
import { runBinary } from '../e2e/helpers.js';
import { TEST_NOW } from '../../scripts/harness/sandbox.js';
import {
  type Relay,
  type SandboxProcess,
  type Session,
  SECRETS,
  secretsIn,
  startRelay,
  startSandboxProcess,
  startSession,
} from '../../scripts/harness/reliability/helpers.js';

/**
 * Authentication rule 2 (the secret is shown once and stored hashed) and rule 10 (the
 * upstream token never appears in any response, error or log). Everything this file
 * makes the binaries say is captured: the sandbox binary's output at debug level, the
 * MCP binary's stderr at debug and trace (client and server logs), every tool answer
 * and every startup failure. Then it is scanned for the secret part of every key.
 */
const SEED = '1';
const LEADS = 80;
let sandbox: SandboxProcess;
let echo: Relay;
const sessions: Session[] = [];
const captured: { where: string; text: string }[] = [];
const keep = (where: string, text: string) => captured.push({ where, text });

/** A mixed set of calls that succeed, fail on arguments, fail at the API, and write. */
async function exercise(s: Session, name: string, lead: string): Promise<void> {
  const calls: [string, Record<string, unknown>][] = [
    ['get_me', {}],
    ['list_workspaces', {}],
    ['list_members', {}],
    ['list_leads', { limit: 3 }],
    ['get_lead', { lead_id: lead }],
    ['get_lead', { lead_id: 'lead_doesnotexist' }],
    ['get_lead', { lead_id: '../me' }],
    ['get_workspace', { workspace: 'globex' }],
    ['get_conversation', { lead_id: lead, limit: 2 }],
    ['create_note', { lead_id: lead, body: `secrets test ${name}` }],
    ['create_task', { lead_id: lead, notes: `secrets test ${name}` }],
    ['get_insights_summary', {}],
    ['list_notes', { cursor: 'bogus' }],
  ];
  for (const [tool, args] of calls) keep(`${name} ${tool}`, JSON.stringify(await s.call(tool, args)));
}

beforeAll(async () => {
  sandbox = await startSandboxProcess([
    '--log-level',
    'debug',
    '--now',
    TEST_NOW,
    '--seed',
    SEED,
    '--leads',
    String(LEADS),
    '--rate-window-ms',
    '1000',
    '--faults',
    'reset=0.1',
  ]);
  // An API that echoes the Authorization header back inside its error messages.
  echo = await startRelay(sandbox.baseUrl);
  echo.override = (req) =>
    (req.url ?? '').startsWith('/v1/me')
      ? null
      : { status: 400, body: JSON.stringify({ error: { code: 'invalid_request', message: `Rejected request with header ${req.headers.authorization}` } }) };
  const lead = 'lead_doesnotexist';
  const keyed = (name: SandboxKeyName, level = 'debug') =>
    startSession(['--log-level', level], { REPLY_INBOX_API_KEY: SANDBOX_KEYS[name], REPLY_INBOX_BASE_URL: sandbox.baseUrl });
  sessions.push(
    ...(await Promise.all([
      startSession(['--api-key', SANDBOX_KEYS.admin, '--base-url', sandbox.baseUrl, '--workspace', 'acme', '--log-level', 'debug']),
      keyed('rep'),
      keyed('readonly'),
      keyed('demoted', 'trace'),
      startSession(['--workspace', 'globex', '--log-level', 'trace'], { REPLY_INBOX_API_KEY: SANDBOX_KEYS.globex, REPLY_INBOX_BASE_URL: sandbox.baseUrl }),
      startSession(['--sandbox', '--sandbox-key', 'rep', '--log-level', 'debug']),
      startSession(['--workspace', 'acme', '--log-level', 'debug'], { REPLY_INBOX_API_KEY: SANDBOX_KEYS.admin, REPLY_INBOX_BASE_URL: echo.url }),
    ])),
  );
  // A real lead of the seed: the sandbox child uses the same seed, so the ids match.
  const realLead = buildStore({ seed: Number(SEED), now: new Date(TEST_NOW), leads: LEADS }).leads.inGroup('acme')[0]!.id;
  await Promise.all(sessions.map((s, i) => exercise(s, `session${i}`, i === 5 ? lead : realLead)));
  // Binaries that never get to serve: keys the API refuses, a key the configuration refuses, an API that echoes the key in a 401.
  const failing: [string, Record<string, string>][] = [
    ['revoked', { REPLY_INBOX_API_KEY: SANDBOX_KEYS.revoked, REPLY_INBOX_BASE_URL: sandbox.baseUrl }],
    ['expired', { REPLY_INBOX_API_KEY: SANDBOX_KEYS.expired, REPLY_INBOX_BASE_URL: sandbox.baseUrl }],
    ['deactivated', { REPLY_INBOX_API_KEY: SANDBOX_KEYS.deactivated, REPLY_INBOX_BASE_URL: sandbox.baseUrl }],
    ['test', { REPLY_INBOX_API_KEY: SANDBOX_KEYS.test, REPLY_INBOX_BASE_URL: sandbox.baseUrl }],
  ];
  const echo401 = createServer((req, res) => {
    res.writeHead(401, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ error: { code: 'invalid_key', message: `Unknown key in ${req.headers.authorization}` } }));
  }).listen(0, '127.0.0.1');
  await once(echo401, 'listening');
  failing.push(['echo401', { REPLY_INBOX_API_KEY: SANDBOX_KEYS.admin, REPLY_INBOX_BASE_URL: `http://127.0.0.1:${(echo401.address() as AddressInfo).port}` }]);
  for (const r of await Promise.all(failing.map(([, env]) => runBinary(['--log-level', 'debug'], env)))) keep(`failing ${r.code}`, `${r.stdout}\n${r.stderr}`);
  await new Promise((r) => echo401.close(r));
}, 60_000);
afterAll(async () => {
  await Promise.all(sessions.map((s) => s.close()));
  await echo?.close();
  await sandbox?.close();
});

const everything = () => [...captured.map((c) => c.text), ...sessions.map((s) => s.stderr()), sandbox.output()].join('\n');

describe('Authentication: the secret part of every key appears zero times in logs, tool results and errors', () => {
  it('the capture is real: debug request lines from the sandbox and from the client, key handles, and answers of every kind', () => {
    expect(sandbox.output()).toMatch(/"level":20.*"msg":"request"/);
    const logs = sessions.map((s) => s.stderr()).join('\n');
    expect(logs).toMatch(/"level":20.*"part":"client".*"msg":"request"/);
    for (const handle of ['admin001', 'repben01', 'readonly', 'demoted1', 'globex01']) expect(logs).toContain(handle);
    const answers = captured.map((c) => c.text).join('\n');
    for (const code of ['invalid_id', 'not_found', 'invalid_cursor', 'workspace_forbidden', 'insufficient_scope'])
      expect(answers).toContain(`"code":"${code}"`);
    expect(captured.filter((c) => c.where.startsWith('failing')).map((c) => c.where)).toEqual([
      'failing 1',
      'failing 1',
      'failing 1',
      'failing 2',
      'failing 1',
    ]);
  });

  it('zero occurrences of any of the nine secrets across the whole capture', () => {
    expect(Object.keys(SECRETS)).toHaveLength(9);
    expect(secretsIn(everything())).toEqual({});
  });

  it('an API that echoes the Authorization header in an error: the tool error shows the public handle, never the secret', () => {
    const echoed = captured.filter((c) => c.where.startsWith('session6 ') && c.text.includes('Rejected request with header'));
    expect(echoed.length).toBeGreaterThan(3);
    for (const c of echoed) {
      expect(c.text).toContain('rik_live_admin001_');
      expect(secretsIn(c.text)).toEqual({});
    }
  });

  it("refused keys stop the binary with the API's code and the handle at most", () => {
    const failing = captured
      .filter((c) => c.where.startsWith('failing'))
      .map((c) => c.text)
      .join('\n');
    for (const code of ['key_revoked', 'key_expired', 'owner_deactivated']) expect(failing).toContain(code);
    expect(failing).toContain('Test-environment keys');
    expect(failing).toContain('Unknown key in Bearer rik_live_admin001_');
    expect(secretsIn(failing)).toEqual({});
  });
});

describe('Authentication rule 10: the upstream platform token of a workspace never appears in any response, error or log', () => {
  it("no workspace's upstream token in the whole capture", () => {
    const tokens = [...buildStore({ seed: Number(SEED), now: new Date(TEST_NOW), leads: LEADS }).workspaces.values()].map((w) => w.upstream_token);
    expect(tokens).toHaveLength(3);
    const all = everything();
    for (const t of tokens) expect(all).not.toContain(t);
  });
});
