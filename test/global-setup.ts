import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { RUN_MARK, markedProcesses } from '../scripts/harness/processes.js';

/**
 * e2e tests spawn the built binaries: emit dist and bundle the server's binary once before
 * any test file runs, and build the reply desk, as `npm run build` does. Type errors do not stop the emit and are
 * reported by `npm run typecheck`, CI's own step; a failed bundle stops the run.
 *
 * Every process the suite starts inherits a mark of this run (the workers get it from this
 * process, and their children from them or from cleanEnv). When the run is over, anything
 * still carrying it outlived its test: it is ended, and the run fails naming it.
 */
export default function setup(): () => void {
  const r = spawnSync('npx', ['tsc', '-p', 'tsconfig.build.json'], { encoding: 'utf8' });
  if (r.error) throw r.error;
  const bin = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/build-bin.ts'], { encoding: 'utf8' });
  if (bin.error) throw bin.error;
  if (bin.status !== 0) throw new Error(`bundling the server's binary failed:\n${bin.stderr}`);
  const desk = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/build-desk.ts'], { encoding: 'utf8' });
  if (desk.error) throw desk.error;
  if (desk.status !== 0) throw new Error(`building the reply desk failed:\n${desk.stderr}`);
  const mark = randomUUID();
  process.env[RUN_MARK] = mark;
  return () => {
    // The runner's own workers are this process's children; a test's child never is.
    const left = markedProcesses(mark, (_pid, ppid) => ppid === process.pid);
    if (left === null) {
      process.stderr.write('No check for processes left running: this system has no /proc to read them from.\n');
      return;
    }
    if (left.length === 0) return;
    for (const p of left) {
      try {
        process.kill(p.pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }
    process.stderr.write(
      `${left.length} process(es) started by the tests outlived them (now ended):\n${left.map((p) => `  ${p.pid} ${p.command}`).join('\n')}\n`,
    );
    process.exitCode = 1;
  };
}
