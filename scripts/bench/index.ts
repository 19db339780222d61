/**
 * npm run bench: what agents and operators pay, in rate budget, context tokens and time.
 * Each section starts its own sandbox. Results go to bench/results.json and stdout.
 *
 *   npm run bench                       every section
 *   npm run bench -- --only tokens,scale
 *   npm run bench -- --only toollist     the tool list's bytes and listing time
 *   npm run bench -- --only triage       the triage job: calls and bytes in each form
 *   npm run bench -- --only fence        adversarial outsider text: fence check, HTML to text, list_leads
 *   npm run bench -- --only desk         the reply desk's bytes and first render in headless Chromium
 *   npm run bench -- --only http-scale   one HTTP instance against the SDK floor, BENCH_ROUNDS rounds (default 3)
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { cpus, totalmem } from 'node:os';
import { parseArgs } from 'node:util';
import { ROOT, type Section, table } from './lib.js';

const SECTIONS: Record<string, () => Promise<Section[]>> = {
  budget: async () => (await import('./budget.js')).budget(),
  shared: async () => (await import('./shared-budget.js')).sharedBudget(),
  overhead: async () => (await import('./overhead.js')).overhead(),
  tokens: async () => (await import('./tokens.js')).tokens(),
  triage: async () => (await import('./triage.js')).triage(),
  toollist: async () => (await import('./tool-list.js')).toolList(),
  start: async () => (await import('./start.js')).start(),
  scale: async () => (await import('./scale.js')).scale(),
  watch: async () => (await import('./watch.js')).watch(),
  fence: async () => (await import('./fence.js')).fence(),
  desk: async () => (await import('./desk.js')).desk(),
  'http-scale': async () => (await import('./http-scale.js')).httpScale(),
};

const { values } = parseArgs({ options: { only: { type: 'string' } } });
const chosen = values.only ? values.only.split(',').map((s) => s.trim()) : Object.keys(SECTIONS);
const unknown = chosen.filter((c) => !SECTIONS[c]);
if (unknown.length) {
  process.stderr.write(`bench: unknown section ${unknown.join(', ')} (known: ${Object.keys(SECTIONS).join(', ')})\n`);
  process.exit(2);
}

const machine = {
  cores: cpus().length,
  cpu: cpus()[0]?.model ?? 'unknown',
  memory_gib: Math.round(totalmem() / 2 ** 30),
  node: process.version,
  platform: process.platform,
};
process.stdout.write(`reply-inbox-mcp benchmarks: ${machine.cores} cores (${machine.cpu}), ${machine.memory_gib} GiB, Node ${machine.node}\n`);
const started = Date.now();
const results: Record<string, Section[]> = {};
for (const name of chosen) {
  const t = Date.now();
  const sections = await SECTIONS[name]!();
  results[name] = sections;
  for (const s of sections) {
    process.stdout.write(`\n## ${s.title}\n${s.note}\n\n${table(s)}\n`);
    for (const w of s.warnings ?? []) process.stdout.write(`\n> ${w}\n`);
  }
  process.stdout.write(`\n(${name}: ${((Date.now() - t) / 1000).toFixed(1)} s)\n`);
}
await mkdir(`${ROOT}bench`, { recursive: true });
await writeFile(
  `${ROOT}bench/results.json`,
  `${JSON.stringify({ date: new Date().toISOString(), machine, seconds: (Date.now() - started) / 1000, results }, null, 2)}\n`,
);
process.stdout.write(`\nWrote bench/results.json (${((Date.now() - started) / 1000).toFixed(0)} s in all).\n`);
