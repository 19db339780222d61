/** Shared budget: two server processes over HTTP sharing one key through Redis. */
import { execFileSync } from 'node:child_process';
import type { Section } from './lib.js';

function has(cmd: string): boolean {
  try {
    execFileSync('sh', ['-c', `command -v ${cmd}`], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

export async function sharedBudget(): Promise<Section[]> {
  const title = 'Shared budget: two servers, one key, one Redis';
  if (!has('redis-server')) {
    process.stderr.write('\nSKIPPED shared budget: redis-server is not installed (apt-get install -y redis-server).\n');
    return [{ title, note: 'Skipped.', columns: ['measure', 'value'], rows: [], warnings: ['SKIPPED: redis-server is not installed on this machine (apt-get install -y redis-server).'] }];
  }
  const { FLAGS } = await import('../../src/cli/config.js');
  if (!('redis' in FLAGS) || !('http' in FLAGS)) {
    process.stderr.write('\nSKIPPED shared budget: this build has no HTTP/Redis mode yet.\n');
    return [{ title, note: 'Skipped.', columns: ['measure', 'value'], rows: [], warnings: ['SKIPPED: this build has no HTTP/Redis mode to measure yet.'] }];
  }
  return [{ title, note: 'Not measured yet.', columns: ['measure', 'value'], rows: [], warnings: ['NOT MEASURED: the two-instance run is not written yet.'] }];
}
