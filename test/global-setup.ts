import { execFileSync } from 'node:child_process';

/** e2e tests spawn the built binaries: build once, before any test file runs. */
export default function setup(): void {
  execFileSync('npx', ['tsc', '-p', 'tsconfig.build.json'], { stdio: 'inherit' });
}
