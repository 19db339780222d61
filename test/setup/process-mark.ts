import { randomUUID } from 'node:crypto';
import { RUN_MARK, markedProcesses } from '../../scripts/harness/run-mark.js';

/**
 * The root project's global setup, which runs for every vitest run whatever projects it
 * selects. Every process the suite starts inherits a mark of this run (the workers get it
 * from this process, and their children from them or from cleanEnv). When the run is over,
 * anything still carrying it outlived its test: it is ended, and the run fails naming it.
 */
export default function setup(): () => void {
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
