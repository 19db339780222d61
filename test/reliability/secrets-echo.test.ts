import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ReplyInboxClient } from '../../src/client/index.js';
import { type Sandbox, SANDBOX_KEYS, startSandbox } from '../../src/sandbox/index.js';
import type { LeadRec } from '../../src/sandbox/store/types.js';
import { TEST_NOW } from '../../scripts/harness/sandbox.js';
import { type Relay, type Session, startRelay, startSession } from '../../scripts/harness/reliability/helpers.js';

/**
 * An API that echoes the key back in every disguise a naive redaction misses: URL-encoded,
 * after an underscore, upper-cased, with characters appended. The key's secret must not be
 * readable in any tool result, resource, error or log line.
 */
const KEY = SANDBOX_KEYS.admin;
const CORE = KEY.split('_')[3]!;
const percentAll = (s: string) => [...Buffer.from(s)].map((b) => `%${b.toString(16).padStart(2, '0')}`).join('');
const DISGUISES = [percentAll(KEY), encodeURIComponent(`key=${KEY}`), `token_${KEY}`, KEY.toUpperCase(), `${KEY}XYZ`, `${CORE}0`, CORE.toLowerCase()];

/** Whether the secret can be read out of the text: any case, percent-encoded or not. */
function readable(text: string): boolean {
  const plain = text.replace(/%([0-9a-f]{2})/gi, (_m, h: string) => String.fromCharCode(Number.parseInt(h, 16)));
  return plain.toLowerCase().includes(CORE.toLowerCase());
}

let sandbox: Sandbox;
let relay: Relay;
let s: Session;
let lead: LeadRec;
const answers: string[] = [];

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, now: TEST_NOW, logLevel: 'silent', leads: 60 });
  lead = sandbox.store.leads.inGroup('acme')[2]!;
  // What the API echoes in data: a lead whose fields hold the key in each disguise.
  Object.assign(lead, {
    first_name: DISGUISES[0],
    last_name: DISGUISES[2],
    company_name: DISGUISES[3],
    title: DISGUISES[4],
    body_preview: DISGUISES.join(' '),
  });
  relay = await startRelay(sandbox.baseUrl);
  // What the API echoes in errors: every disguise in the message and the param.
  relay.override = (req) =>
    (req.url ?? '').includes('/notes')
      ? { status: 400, body: JSON.stringify({ error: { code: 'invalid_request', message: `Bad header ${DISGUISES.join(' ')}`, param: DISGUISES[1] } }) }
      : null;
  s = await startSession(['--workspace', 'acme', '--log-level', 'trace'], { REPLY_INBOX_API_KEY: KEY, REPLY_INBOX_BASE_URL: relay.url });
  for (const [tool, args] of [
    ['get_lead', { lead_id: lead.id }],
    ['get_lead', { lead_id: lead.id, view: 'full' }],
    ['list_leads', { email: lead.email, view: 'full' }],
    ['list_notes', { lead_id: lead.id }],
  ] as const)
    answers.push(JSON.stringify(await s.call(tool, args)));
  answers.push(JSON.stringify(await s.client.readResource({ uri: `inbox://acme/leads/${lead.id}` })));
}, 60_000);
afterAll(async () => {
  await s?.close();
  await relay?.close();
  await sandbox?.close();
});

describe('Secrets: a key the API echoes URL-encoded, after an underscore, upper-cased or with characters appended never reaches a result, an error or a log', () => {
  it('the capture is real: the echoed fields and the echoed error came through', () => {
    const all = answers.join('\n');
    expect(all).toContain('Bad header');
    expect(all).toContain('"code":"invalid_request"');
    expect(answers[0]).toContain(lead.id);
    expect(s.stderr()).toMatch(/"msg":"request"/);
  });
  it('tool results and the lead resource: the secret is unreadable in every disguise', () => {
    for (const a of answers.slice(0, 3)) expect(readable(a), a.slice(0, 400)).toBe(false);
    expect(readable(answers[4]!)).toBe(false);
  });
  it('tool errors: the message and the param are redacted', () => {
    expect(readable(answers[3]!), answers[3]).toBe(false);
  });
  it('logs at trace level hold no form of the secret', () => {
    expect(readable(s.stderr())).toBe(false);
  });
});

describe("Secrets: each client's own key (HTTP bearer mode makes one client per key) is redacted in what that client returns", () => {
  it('a client for the rep key returns a lead whose echoed rep key is unreadable; after close the key is forgotten', async () => {
    const rep = SANDBOX_KEYS.rep;
    const repCore = rep.split('_')[3]!;
    const c = new ReplyInboxClient({ apiKey: rep, baseUrl: sandbox.baseUrl, logLevel: 'silent' });
    const target = sandbox.store.leads.inGroup('acme').find((l) => l.id !== lead.id)!;
    target.company_name = `x_${repCore.toUpperCase()}tail`;
    const r = await c.call('get_lead', { path: { workspace: 'acme', lead_id: target.id } }).catch((e: unknown) => e);
    await c.close();
    const text = JSON.stringify(r);
    expect(text).toContain('x_');
    expect(text.toLowerCase()).not.toContain(repCore.toLowerCase());
  });
});
