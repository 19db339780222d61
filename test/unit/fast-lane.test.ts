import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import config from '../../vitest.config.js';
import { ROOT, filesUnder, importsOf } from '../helpers/source-files.js';

// This file names what it looks for without spelling it, or it would find itself.
const call = (name: string, args = '') => `${name}(${args})`;
const TIMERS = `'${['node', 'timers/promises'].join(':')}'`;
const UNTIL = `'../helpers/${'until'}.js'`;

/** The setup each project of the fast lane loads (it makes starting a process fail); the process lane loads the hooks. */
const FAST_SETUP = './test/setup/no-processes.ts';
const PROCESS_HOOKS = './test/helpers/process-hooks.ts';
/** The clock the tests move: its default start is the one reading of the wall it makes. */
const THE_CLOCK = 'test/helpers/manual-clock.ts';

/** Reading the wall's time, which fake timers (vi.useFakeTimers) replace. */
const WALL = [/\bDate\.now\s*\(/, /\bnew Date\(\s*\)/, /\bperformance\.now\s*\(/, /\bprocess\.hrtime\b/, /(?<![\w.$])set(?:Timeout|Interval)\s*\(/];
/** Waiting on the real clock, which fake timers do not replace: the timer modules, and the process lane's real-time poll. */
const REAL_WAITS = [/['"]node:timers(?:\/promises)?['"]/, /helpers\/until\.js['"]/];

interface Project {
  test: { name: string; include: string[]; setupFiles?: string[] };
}
const projects = (config.test?.projects ?? []) as unknown as Project[];
const fastLane = projects.filter((p) => p.test.setupFiles?.includes(FAST_SETUP));

/** The files an include of the form `dir/**\/*.suffix` names. */
function filesOf(include: string): string[] {
  const m = /^([\w./-]+)\/\*\*\/\*(\.[\w.]+)$/.exec(include);
  if (!m) throw new Error(`an include this check cannot read: ${include}`);
  return filesUnder(m[1]!).filter((f) => f.endsWith(m[2]!));
}

/** The test files of the fast lane and every file under test/ they import, however indirectly (but the clock). */
function fastLaneFiles(): string[] {
  const seen = new Set<string>();
  const visit = (f: string) => {
    // An import a file only quotes (a sample text) names nothing there.
    if (seen.has(f) || f === THE_CLOCK || !existsSync(join(ROOT, f))) return;
    seen.add(f);
    for (const i of importsOf(f)) if (i.startsWith('test/')) visit(i);
  };
  for (const p of fastLane) for (const include of p.test.include) for (const f of filesOf(include)) visit(f);
  return [...seen].sort();
}

/** Each line of `text` that reads or waits on the real clock, comments left out. */
function realTimeIn(text: string): string[] {
  const fake = text.includes(call('vi.useFakeTimers'));
  const patterns = fake ? REAL_WAITS : [...WALL, ...REAL_WAITS];
  const code = text.replace(/\/\*[\s\S]*?\*\//g, (c) => c.replace(/[^\n]/g, ' ')).replace(/(^|\s)\/\/.*$/gm, '$1');
  return code.split('\n').flatMap((line, i) => (patterns.some((p) => p.test(line)) ? [`${i + 1}: ${line.trim()}`] : []));
}

describe('two lanes: the fast lane is unit, contract, client and tools, with no process and no real clock', () => {
  it('its projects load the setup that forbids processes, never the process hooks, and npm run test:fast runs exactly them', () => {
    expect(fastLane.map((p) => p.test.name)).toEqual(['unit', 'contract', 'client', 'tools']);
    for (const p of projects) expect(p.test.setupFiles?.includes(PROCESS_HOOKS), p.test.name).toBe(!fastLane.includes(p));
    const scripts = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;
    expect(scripts['test:fast']).toBe(`vitest run ${fastLane.map((p) => `--project ${p.test.name}`).join(' ')}`);
    expect(scripts.test).toBe('vitest run');
  });

  it('the check finds each way of reading or waiting on the real clock, and not a Clock or fake timers', () => {
    const sleep = `await new Promise((r) => ${call('setTimeout', 'r, 10')});`;
    expect(realTimeIn(sleep)).toEqual([`1: ${sleep}`]);
    expect(realTimeIn(`const t = ${call('Date.now')};`)).toHaveLength(1);
    expect(realTimeIn(`const d = new ${call('Date')};`)).toHaveLength(1);
    expect(realTimeIn(`import { setTimeout as sleep } from ${TIMERS};`)).toHaveLength(1);
    expect(realTimeIn(`import { until } from ${UNTIL};`)).toHaveLength(1);
    // The project's Clock, a date that is given, and the same calls under fake timers are time the test moves.
    expect(realTimeIn(`${call('clock.setTimeout', 'fn, 5')}; new ${call('Date', "'2026-11-20'")}; ${call('clock.now')};`)).toEqual([]);
    expect(realTimeIn(`${call('vi.useFakeTimers')};\n${call('setTimeout', 'fn, 5')}; ${call('Date.now')};`)).toEqual([]);
    expect(realTimeIn(`${call('vi.useFakeTimers')};\nimport { setTimeout } from ${TIMERS};`)).toHaveLength(1);
    // What a comment says is not a call.
    expect(realTimeIn(`// no ${call('Date.now')} here\n/* nor ${call('setTimeout', 'x, 1')} */`)).toEqual([]);
  });

  it('no test file of the fast lane, nor a helper it imports, reads or waits on the real clock', () => {
    const files = fastLaneFiles();
    expect(files).toContain('test/unit/fast-lane.test.ts');
    expect(files).toContain('test/client/helpers.ts');
    const found = files.flatMap((f) => realTimeIn(readFileSync(join(ROOT, f), 'utf8')).map((l) => `${f}:${l}`));
    expect(found).toEqual([]);
  });
});
