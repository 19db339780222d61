#!/usr/bin/env node
/**
 * The server binary's first module (the build bundles it as dist/src/cli/mcp.js): before
 * anything else is loaded, it tells V8 how to size the young generation, then starts the
 * server (mcp-main.ts).
 *
 * Over stdio, V8 doubles its young generation whenever a collection finds it busy, up to
 * 2 × 16 MiB, and keeps it: a server that answered a few thousand calls held 32 MiB there for
 * objects that live a millisecond. At its starting size (2 × 1 MiB) it collects more often, at
 * a few hundredths of a millisecond per call, and the process stays ~25 MiB smaller
 * (docs/performance.md). Over HTTP (--http or REPLY_INBOX_HTTP) V8's own sizing rules: with
 * dozens of calls under way, 2 × 1 MiB holds mostly live objects, each young collection copies
 * and promotes them, and collecting took a quarter of the server's CPU under load.
 * Set here, not as a node flag, because this module is the one thing every way of starting the
 * server runs: npx, the bin, the MCP Bundle. A young-generation flag given to node itself (on
 * its command line or in NODE_OPTIONS) is left to rule.
 */
import { setFlagsFromString } from 'node:v8';

const YOUNG_GENERATION_FLAG = /(^|\s)--(semi[-_]space[-_]growth[-_]factor|max[-_]semi[-_]space[-_]size|min[-_]semi[-_]space[-_]size)\b/;

/** Serving over HTTP: the flag, in either form, or its variable (as the configuration reads them). */
function servesHttp(argv: readonly string[], env: NodeJS.ProcessEnv): boolean {
  return argv.some((a) => a === '--http' || a.startsWith('--http=')) || Boolean(env.REPLY_INBOX_HTTP);
}

if (!YOUNG_GENERATION_FLAG.test([...process.execArgv, process.env.NODE_OPTIONS ?? ''].join(' ')) && !servesHttp(process.argv.slice(2), process.env)) {
  setFlagsFromString('--semi-space-growth-factor=1');
}
await import('./mcp-main.js');
