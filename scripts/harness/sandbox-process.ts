import { once } from 'node:events';
import { SANDBOX_BIN, spawnTracked } from './processes.js';

export interface SandboxProcess {
  baseUrl: string;
  /** Everything it wrote on stdout and stderr so far. */
  output(): string;
  close(): Promise<void>;
}

/** Run reply-inbox-sandbox as its own process, so its logs can be captured whole. */
export async function startSandboxProcess(args: string[]): Promise<SandboxProcess> {
  const child = spawnTracked(process.execPath, [SANDBOX_BIN, '--port', '0', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stderr!.on('data', (d: Buffer) => (out += d.toString('utf8')));
  const baseUrl = await new Promise<string>((resolve, reject) => {
    let first = '';
    const onData = (d: Buffer) => {
      out += d.toString('utf8');
      first += d.toString('utf8');
      const line = first.split('\n')[0];
      if (first.includes('\n') && line) {
        child.stdout!.off('data', onData);
        child.stdout!.on('data', (more: Buffer) => (out += more.toString('utf8')));
        resolve((JSON.parse(line) as { base_url: string }).base_url);
      }
    };
    child.stdout!.on('data', onData);
    child.once('exit', (code) => reject(new Error(`the sandbox exited with ${code}: ${out}`)));
  });
  return {
    baseUrl,
    output: () => out,
    close: async () => {
      if (child.exitCode !== null) return;
      const exited = once(child, 'exit');
      child.kill('SIGTERM');
      await exited;
    },
  };
}
