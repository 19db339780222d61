import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SANDBOX_KEYS, type Sandbox } from '../../src/sandbox/index.js';
import { sandbox } from '../client/helpers.js';
import { BIN, stdioTransport } from '../../scripts/harness/processes.js';
import { connectHttp, startHttpBinary } from '../../scripts/harness/http.js';

const PRELOAD = fileURLToPath(new URL('../helpers/heap-spaces.cjs', import.meta.url));
/** The server without its launcher: the same code, with V8's default young generation. */
const UNLAUNCHED = fileURLToPath(new URL('../../dist/src/cli/mcp-main.js', import.meta.url));
const MiB = 1024 * 1024;
let sb: Sandbox;
const dir = mkdtempSync(join(tmpdir(), 'young-generation-'));

beforeAll(async () => {
  sb = await sandbox({ bucketLimits: { read: 1_000_000, thread: 1_000_000, upstream: 1_000_000, write: 1_000_000, max_concurrent: 1_000 } });
});
afterAll(async () => {
  rmSync(dir, { recursive: true, force: true });
  await sb.close();
});

/** 150 conversation and lead-page reads over stdio; V8's heap spaces as the process exits. */
async function session(bin: string, name: string, nodeFlags: string[] = []): Promise<Record<string, number>> {
  const file = join(dir, `${name}.json`);
  const env = { REPLY_INBOX_API_KEY: SANDBOX_KEYS.admin, REPLY_INBOX_BASE_URL: sb.baseUrl, HEAP_SPACES_FILE: file };
  const client = new Client({ name: 'young-generation', version: '0' });
  await client.connect(stdioTransport(process.execPath, [...nodeFlags, '--require', PRELOAD, bin, '--log-level', 'silent', '--workspace', 'acme'], env));
  await reads(client);
  await client.close();
  return heapSpaces(file);
}

/** The same reads from a client of the binary serving Streamable HTTP; its heap spaces once it has drained and exited. */
async function httpSession(name: string): Promise<Record<string, number>> {
  const file = join(dir, `${name}.json`);
  const bin = await startHttpBinary(['--base-url', sb.baseUrl, '--workspace', 'acme'], { NODE_OPTIONS: `--require ${PRELOAD}`, HEAP_SPACES_FILE: file });
  const client = await connectHttp(bin.url, `Bearer ${SANDBOX_KEYS.admin}`);
  await reads(client);
  await client.close();
  await bin.stop();
  return heapSpaces(file);
}

async function reads(client: Client): Promise<void> {
  const leads = sb.store.sortedLeads('acme').slice(0, 50);
  for (let i = 0; i < 150; i++) {
    const r = await client.callTool(
      i % 2 ? { name: 'get_conversation', arguments: { lead_id: leads[i % 50]!.id } } : { name: 'list_leads', arguments: { limit: 50 } },
    );
    expect(r.isError).toBeFalsy();
  }
}

async function heapSpaces(file: string): Promise<Record<string, number>> {
  for (let i = 0; i < 100; i++) {
    try {
      return JSON.parse(readFileSync(file, 'utf8')) as Record<string, number>;
    } catch {
      await new Promise((r) => setTimeout(r, 20));
    }
  }
  throw new Error('the server wrote no heap spaces at exit');
}

describe('Over stdio the binary keeps V8 young generation at its starting size (mcp-launch.ts)', () => {
  it('through a session of 150 reads the new space stays at 2 × 1 MiB, where the same server without the launcher grows it', async () => {
    const [launched, unlaunched] = await Promise.all([session(BIN, 'launched'), session(UNLAUNCHED, 'unlaunched')]);
    expect(launched.new_space).toBeLessThanOrEqual(2 * MiB);
    expect(unlaunched.new_space).toBeGreaterThanOrEqual(8 * MiB);
  });

  it("a young-generation flag given to node is left to rule: with --max-semi-space-size=16 the binary's new space grows", async () => {
    const chosen = await session(BIN, 'chosen', ['--max-semi-space-size=16']);
    expect(chosen.new_space).toBeGreaterThanOrEqual(8 * MiB);
  });

  it("serving HTTP, V8's own sizing rules: after the same reads the new space has grown", async () => {
    const served = await httpSession('http');
    expect(served.new_space).toBeGreaterThanOrEqual(8 * MiB);
  });
});
