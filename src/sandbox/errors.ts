import type { ApiErrorCode } from '../api/endpoints.js';
import { ERROR_STATUS } from '../api/errors.js';

/** An error the sandbox answers with, in the spec's envelope. */
export class SandboxError extends Error {
  readonly status: number;
  constructor(
    readonly code: ApiErrorCode,
    message: string,
    readonly extra: { param?: string; required_scope?: string; retry_after?: number } = {},
  ) {
    super(message);
    this.status = ERROR_STATUS[code];
  }
  toBody() {
    return { error: { code: this.code, message: this.message, ...this.extra } };
  }
}

export function fail(code: ApiErrorCode, message: string, extra: SandboxError['extra'] = {}): never {
  throw new SandboxError(code, message, extra);
}

export function notFound(what: string, param?: string): never {
  throw new SandboxError('not_found', `No such ${what} in this workspace.`, param ? { param } : {});
}
