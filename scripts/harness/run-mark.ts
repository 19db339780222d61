import { readFileSync, readdirSync } from 'node:fs';

/*
 * The mark of a test run, and the processes that carry it: the root global setup reads only
 * this, so a run that starts no process (npm run test:fast) never loads the SDK's stdio client.
 */

/**
 * Set by the global setup to an id of this run, and passed to every process the suite
 * starts: the global teardown finds whatever still carries it.
 */
export const RUN_MARK = 'REPLY_INBOX_TEST_RUN';

/**
 * Processes that still carry this run's mark, other than `except` (the runner's own
 * workers): read from /proc, so null where there is none.
 */
export function markedProcesses(mark: string, except: (pid: number, ppid: number) => boolean): { pid: number; command: string }[] | null {
  let pids: string[];
  try {
    pids = readdirSync('/proc').filter((d) => /^\d+$/.test(d));
  } catch {
    return null;
  }
  const needle = `${RUN_MARK}=${mark}\0`;
  const found: { pid: number; command: string }[] = [];
  for (const d of pids) {
    const pid = Number(d);
    try {
      if (!readFileSync(`/proc/${d}/environ`, 'latin1').includes(needle)) continue;
      const ppid = Number(/^PPid:\s+(\d+)/m.exec(readFileSync(`/proc/${d}/status`, 'latin1'))?.[1]);
      if (pid === process.pid || except(pid, ppid)) continue;
      found.push({ pid, command: readFileSync(`/proc/${d}/cmdline`, 'latin1').split('\0').join(' ').trim() });
    } catch {
      // gone meanwhile, or another user's
    }
  }
  return found;
}
