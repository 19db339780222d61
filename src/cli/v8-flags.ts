/**
 * The V8 flags the binary's launcher (mcp-launch.ts) sets before the server loads, from how
 * node was started. A flag of either kind given to node itself (on its command line or in
 * NODE_OPTIONS) is left to rule.
 *
 * The young generation, over stdio only. V8 doubles it whenever a collection finds it busy, up
 * to 2 × 16 MiB, and keeps it: a server that answered a few thousand calls held 32 MiB there
 * for objects that live a millisecond. At its starting size (2 × 1 MiB) it collects more often,
 * at a few hundredths of a millisecond per call, and the process stays ~25 MiB smaller
 * (docs/performance.md). Over HTTP (--http or REPLY_INBOX_HTTP) V8's own sizing rules: with
 * dozens of calls under way, 2 × 1 MiB holds mostly live objects, each young collection copies
 * and promotes them, and collecting took a quarter of the server's CPU under load.
 *
 * WebAssembly on V8's baseline compiler (Liftoff) only. undici parses HTTP with llhttp, a
 * WebAssembly module, which V8 otherwise compiles again with its optimising compiler on a
 * background thread: about 100 ms of CPU beside the start on a two-core machine, some 9 MiB of
 * memory, and a wait when the process exits, which a 2026-07-28 client pays on every connect
 * for the probe process it starts and reaps (docs/performance.md). The baseline code parses an
 * API answer in microseconds as well.
 */
const YOUNG_GENERATION_FLAG = /(^|\s)--(semi[-_]space[-_]growth[-_]factor|max[-_]semi[-_]space[-_]size|min[-_]semi[-_]space[-_]size)\b/;
const WASM_TIER_FLAG = /(^|\s)--(no[-_])?(liftoff|liftoff[-_]only|wasm[-_]tier[-_]up|wasm[-_]dynamic[-_]tiering)\b/;

/** Serving over HTTP: the flag, in either form, or its variable (as the configuration reads them). */
function servesHttp(argv: readonly string[], env: NodeJS.ProcessEnv): boolean {
  return argv.some((a) => a === '--http' || a.startsWith('--http=')) || Boolean(env.REPLY_INBOX_HTTP);
}

/**
 * @param argv the binary's arguments (process.argv after the script)
 * @param nodeFlags node's own flags: process.execArgv and NODE_OPTIONS, joined by spaces
 */
export function launchFlags(argv: readonly string[], env: NodeJS.ProcessEnv, nodeFlags: string): string[] {
  const flags: string[] = [];
  if (!YOUNG_GENERATION_FLAG.test(nodeFlags) && !servesHttp(argv, env)) flags.push('--semi-space-growth-factor=1');
  if (!WASM_TIER_FLAG.test(nodeFlags)) flags.push('--liftoff-only');
  return flags;
}
