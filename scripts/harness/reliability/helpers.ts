/*
 * Shared by the reliability tests and scripts/soak.ts: an MCP session that reports every
 * kind of answer, a recording relay, endpoint matching, secret and fence scanners, the
 * mixed fault workload and the fuzz arguments built from published schemas.
 */
export { BIN, cleanEnv } from '../processes.js';
export { type Canned, type Relay, type Seen, startRelay } from '../relay.js';
export { type SandboxProcess, startSandboxProcess } from '../sandbox-process.js';
export * from './endpoint-of.js';
export * from './fuzz-cases.js';
export * from './scan.js';
export * from './session.js';
export * from './workload.js';
