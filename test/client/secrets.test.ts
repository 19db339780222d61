import { inspect } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NetworkError, OutcomeUnknownError, ReplyInboxClient } from '../../src/client/index.js';
import type { Sandbox } from '../../src/sandbox/index.js';
import { capturedLogger, sandbox } from './helpers.js';

let sb: Sandbox;
beforeAll(async () => {
  sb = await sandbox({ rateWindowMs: 1000 });
});
afterAll(() => sb.close());

const secretOf = (key: string) => key.split('_')[3]!;

/** Every way an error can be printed or serialized. */
function renderings(e: unknown): string {
  const err = e as Error;
  return [String(err), err.message, err.stack ?? '', JSON.stringify(err), inspect(err, { depth: 5 })].join('\n');
}

describe('Authentication: the API key is a secret, never logged, never in an error; log its public handle at most', () => {
  it('no log line, error or thrown message contains the secret of the key', async () => {
    const { logger, text } = capturedLogger();
    const texts: string[] = [];
    for (const name of ['admin', 'revoked'] as const) {
      const key = sb.keys[name];
      const c = new ReplyInboxClient({ apiKey: key, baseUrl: sb.baseUrl, logger });
      await c.call('list_members', { path: { workspace: 'acme' } }).catch((e: unknown) => texts.push(renderings(e)));
      await c.call('get_lead', { path: { workspace: 'acme', lead_id: 'lead_nope' } }).catch((e: unknown) => texts.push(renderings(e)));
      await c.call('get_lead', { path: { workspace: 'acme', lead_id: 'bad' } }).catch((e: unknown) => texts.push(renderings(e)));
      texts.push(inspect(c, { depth: 4 }));
      await c.close();
    }
    // A dead port: network errors, retries and warnings are logged too.
    const dead = new ReplyInboxClient({ apiKey: sb.keys.admin, baseUrl: 'http://127.0.0.1:9', logger, retry: { maxAttempts: 2, baseDelayMs: 5 } });
    const netErr = await dead.call('list_members', { path: { workspace: 'acme' } }).catch((e: unknown) => e);
    expect(netErr).toBeInstanceOf(NetworkError);
    expect(netErr).toMatchObject({ sent: 'no', code: 'network_error' });
    texts.push(renderings(netErr));
    await dead.close();

    const logs = text();
    expect(logs).toContain('admin001');
    expect(texts.join('\n')).toContain('key_revoked');
    for (const name of ['admin', 'revoked'] as const) {
      expect(logs).not.toContain(secretOf(sb.keys[name]));
      expect(texts.join('\n')).not.toContain(secretOf(sb.keys[name]));
    }
  });

  it('one reading of the public handle: the client logs the handle the API shows (display_prefix), and none for a key not of the form', async () => {
    const c = new ReplyInboxClient({ apiKey: sb.keys.rep, baseUrl: sb.baseUrl });
    const me = (await c.call('get_me', {})).data;
    expect(me.display_prefix).toBe(`rik_live_${c.keyHandle}`);
    await c.close();
    // Eight characters after two words are not a handle unless the whole key has the form: a
    // pasted fragment of something else shows nothing of itself.
    const odd = new ReplyInboxClient({ apiKey: 'rik_live_abcdefgh_tooshort', baseUrl: 'http://127.0.0.1:9' });
    expect(odd.keyHandle).toBe('unknown');
    await odd.close();
  });

  it('a secret echoed in a foreign error message is replaced by the public handle', async () => {
    const echoed = new OutcomeUnknownError(
      'create_task',
      'check',
      false,
      new NetworkError('create_task', `socket closed for ${sb.keys.admin}`, 'maybe', 'ECONNRESET'),
    );
    expect(renderings(echoed)).not.toContain(secretOf(sb.keys.admin));
    expect(renderings(echoed)).toContain('admin001');
  });
});
