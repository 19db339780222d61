import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type HttpBinary, startHttpBinary } from '../../scripts/harness/http.js';
import { SANDBOX_KEYS } from '../../src/sandbox/index.js';
import { ALL_TOOLS } from '../../tools/index.js';
import { ROOT, run } from './helpers.js';

/**
 * Issue 30 item 11: HTTP mode with --sandbox answered 401 until a client sent a sandbox key
 * that neither the README nor docs/deploy.md named, and deploy.md had no local example. Each
 * shows a local run (the block after `<!-- local-http -->`): this test runs its two commands as
 * written, but for the port (0, a free one: a fixed port may be taken on a shared machine),
 * then the same without --http-token and with the sandbox key the text names.
 */
const DOCS = ['README.md', 'docs/deploy.md'];
const DOC_PORT = '8080';
const DOC_URL = `http://127.0.0.1:${DOC_PORT}/mcp`;

interface LocalRun {
  server: string[];
  printed: string;
  curl: string;
  token: string;
  /** The sandbox key the text names for the mode without a token. */
  key: string;
}

function localRun(doc: string): LocalRun {
  const text = readFileSync(join(ROOT, doc), 'utf8');
  const at = text.indexOf('<!-- local-http -->');
  expect(at, `${doc} marks its local HTTP run`).toBeGreaterThanOrEqual(0);
  const block = /```sh\n([\s\S]*?)```/.exec(text.slice(at))![1]!;
  const [server, comment, ...rest] = block.trimEnd().split('\n');
  const curl = rest.join('\n').replace(/\\\n\s*/g, '');
  return {
    server: server!.split(' '),
    printed: /prints (\{.*?\})/.exec(comment!)![1]!,
    curl,
    token: /--http-token (\S+)/.exec(server!)![1]!,
    key: /rik_live_\w+/.exec(text.slice(at + block.length))![0],
  };
}

/** Start the documented server command (on a free port) and wait for its line. */
async function serve(args: string[]): Promise<HttpBinary> {
  expect(args.slice(0, 2)).toEqual(['node', 'dist/src/cli/mcp.js']);
  return startHttpBinary(args.slice(2).map((a) => (a === DOC_PORT ? '0' : a)));
}

/** The documented curl against the server's printed URL; its JSON answer. */
async function curl(command: string, url: string): Promise<{ code: number | null; body: any }> {
  expect(command.startsWith(`curl -s ${DOC_URL} `)).toBe(true);
  const r = await run('sh', ['-c', command.replace(DOC_URL, url)]);
  return { code: r.code, body: r.stdout ? JSON.parse(r.stdout) : null };
}

describe.each(DOCS)('%s: a local HTTP run that works as written', (doc) => {
  const r = localRun(doc);

  it('token mode: the server prints what the text says, and the curl lists every tool', async () => {
    const bin = await serve(r.server);
    try {
      const port = new URL(bin.url).port;
      expect(bin.stdoutLine).toBe(r.printed.replaceAll(DOC_PORT, port));
      const answer = await curl(r.curl, bin.url);
      expect(answer.code).toBe(0);
      expect(answer.body.result.tools.map((t: { name: string }) => t.name).sort()).toEqual(ALL_TOOLS.map((t) => t.name).sort());
    } finally {
      await bin.stop();
    }
  });

  it('without --http-token: 401 without a key; the sandbox key the text names lists the tools', async () => {
    expect(r.key).toBe(SANDBOX_KEYS.admin);
    const server = r.server.filter((a, i, all) => a !== '--http-token' && all[i - 1] !== '--http-token');
    const bin = await serve(server);
    try {
      const refused = await run('sh', ['-c', `curl -s -o /dev/null -w '%{http_code}' ${bin.url} -X POST -H 'Content-Type: application/json' -d '{}'`]);
      expect(refused.stdout).toBe('401');
      const answer = await curl(r.curl.replace(r.token, r.key), bin.url);
      expect(answer.body.result.tools.length).toBe(ALL_TOOLS.length);
    } finally {
      await bin.stop();
    }
  });
});
