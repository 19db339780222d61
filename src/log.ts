import pino, { type Logger } from 'pino';
import { redactDeep, redactSecrets } from './redact.js';

export type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
export const LOG_LEVELS: readonly LogLevel[] = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

/**
 * pino to stderr only (stdout carries the MCP protocol), with the Authorization header
 * and key fields redacted wherever they appear.
 */
export function createLogger(name: string, level: LogLevel = 'info', destination: pino.DestinationStream = pino.destination(2)): Logger {
  return pino(
    {
      name,
      level,
      redact: {
        paths: [
          'authorization',
          '*.authorization',
          '*.headers.authorization',
          'headers.authorization',
          'apiKey',
          '*.apiKey',
          'api_key',
          '*.api_key',
          'token',
          '*.token',
        ],
        censor: '[redacted]',
      },
      formatters: {
        // A secret in any field of a log line (a response body, an echoed header) is redacted too.
        log: (obj) => redactDeep(obj),
      },
      hooks: {
        // A secret inside a message or error text is replaced by the key's public handle.
        logMethod(args, method) {
          method.apply(this, args.map((a) => (typeof a === 'string' ? redactSecrets(a) : a)) as Parameters<typeof method>);
        },
      },
      serializers: {
        err: (e: unknown) => {
          const s = pino.stdSerializers.err(e as Error);
          if (s && typeof s.message === 'string') s.message = redactSecrets(s.message);
          if (s && typeof s.stack === 'string') s.stack = redactSecrets(s.stack);
          return s;
        },
      },
    },
    destination,
  );
}
