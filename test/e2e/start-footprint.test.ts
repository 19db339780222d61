import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SANDBOX_KEYS, type Sandbox } from '../../src/sandbox/index.js';
import { sandbox } from '../client/helpers.js';
import { rawSession } from './helpers.js';

/**
 * What a start costs that the floor server does not pay (docs/performance.md, "Start"): ICU's
 * data, mapped by the first use of Intl (about 5 MiB of the process's memory). The binary
 * answers its first request, in either era, without it; the first call that formats a date
 * in a timezone is the first use.
 */
const RECORDER = fileURLToPath(new URL('../helpers/intl-uses.cjs', import.meta.url));
const meta = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientInfo': { name: 'footprint', version: '0' },
  'io.modelcontextprotocol/clientCapabilities': {},
};
const line = (m: object): Record<string, unknown> => ({ jsonrpc: '2.0', ...m });
const INITIALIZE = line({
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'footprint', version: '0' } },
});
let sb: Sandbox;
const dir = mkdtempSync(join(tmpdir(), 'start-footprint-'));

beforeAll(async () => {
  sb = await sandbox();
});
afterAll(async () => {
  rmSync(dir, { recursive: true, force: true });
  await sb.close();
});

/** A raw session of these messages, one answer at a time, to the process's exit: the uses of Intl it recorded. */
async function intlUses(name: string, messages: Record<string, unknown>[]): Promise<string[]> {
  const file = join(dir, `${name}.txt`);
  const env = { REPLY_INBOX_API_KEY: SANDBOX_KEYS.admin, REPLY_INBOX_BASE_URL: sb.baseUrl, INTL_USES_FILE: file };
  const r = await rawSession(['--log-level', 'silent', '--workspace', 'acme'], messages, env, ['--require', RECORDER]);
  expect(r.code).toBe(0);
  const ids = messages.filter((m) => 'id' in m).map((m) => m.id);
  const answers = r.stdout
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as { id?: unknown; error?: unknown });
  expect(answers.filter((a) => ids.includes(a.id)).map((a) => [a.id, a.error])).toEqual(ids.map((id) => [id, undefined]));
  return readFileSync(file, 'utf8').split('\n').filter(Boolean);
}

describe('A start maps no ICU data: Intl is first used by a call that needs it', () => {
  it('2025: the initialize answer, and a tools/list, use no Intl', async () => {
    const uses = await intlUses('legacy', [INITIALIZE, line({ method: 'notifications/initialized' }), line({ id: 2, method: 'tools/list' })]);
    expect(uses).toEqual([]);
  });

  it('2026-07-28: server/discover and a tools/list use no Intl', async () => {
    const uses = await intlUses('modern', [
      line({ id: 1, method: 'server/discover', params: { _meta: meta } }),
      line({ id: 2, method: 'tools/list', params: { _meta: meta } }),
    ]);
    expect(uses).toEqual([]);
  });

  it("get_me, which states today in the key owner's timezone, is a first use the recorder sees", async () => {
    const uses = await intlUses('get-me', [
      INITIALIZE,
      line({ method: 'notifications/initialized' }),
      line({ id: 2, method: 'tools/call', params: { name: 'get_me', arguments: {} } }),
    ]);
    expect(uses.some((u) => u.startsWith('new Intl.DateTimeFormat'))).toBe(true);
  });
});
