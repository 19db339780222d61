#!/usr/bin/env node
/**
 * The server binary's first module (the build bundles it as dist/src/cli/mcp.js): before
 * anything else is loaded, it sets V8's flags (v8-flags.ts says which and why), then starts
 * the server (mcp-main.ts). Set here, not as node flags, because this module is the one thing
 * every way of starting the server runs: npx, the bin, the MCP Bundle.
 */
import { setFlagsFromString } from 'node:v8';
import { launchFlags } from './v8-flags.js';

for (const flag of launchFlags(process.argv.slice(2), process.env, [...process.execArgv, process.env.NODE_OPTIONS ?? ''].join(' '))) {
  setFlagsFromString(flag);
}
await import('./mcp-main.js');
