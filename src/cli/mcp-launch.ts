#!/usr/bin/env node
/**
 * The server binary's first module (the build bundles it as dist/src/cli/mcp.js): before
 * anything else is loaded, it tells V8 how to size the young generation, then starts the
 * server (mcp-main.ts).
 *
 * V8 doubles its young generation whenever a collection finds it busy, up to 2 × 16 MiB, and
 * keeps it: a server that answered a few thousand calls held 32 MiB there for objects that
 * live a millisecond. At its starting size (2 × 1 MiB) it collects more often, at a few
 * hundredths of a millisecond per call, and the process stays ~25 MiB smaller
 * (docs/performance.md). Set here, not as a node flag, because this module is the one thing
 * every way of starting the server runs: npx, the bin, the MCP Bundle. A young-generation
 * flag given to node itself (on its command line or in NODE_OPTIONS) is left to rule.
 */
import { setFlagsFromString } from 'node:v8';

const YOUNG_GENERATION_FLAG = /(^|\s)--(semi[-_]space[-_]growth[-_]factor|max[-_]semi[-_]space[-_]size|min[-_]semi[-_]space[-_]size)\b/;

if (!YOUNG_GENERATION_FLAG.test([...process.execArgv, process.env.NODE_OPTIONS ?? ''].join(' '))) {
  setFlagsFromString('--semi-space-growth-factor=1');
}
await import('./mcp-main.js');
