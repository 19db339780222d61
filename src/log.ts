import pino, { type Logger } from 'pino';

export type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
export const LOG_LEVELS: readonly LogLevel[] = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

/** Anything shaped like an API key or session token, wherever it appears in a string. */
export const SECRET_PATTERN = /\b(rik_[a-z]+_[A-Za-z0-9]{8})_[A-Za-z0-9]{32}\b|\brims_[A-Za-z0-9]{40}\b/g;

/** Replace every key secret with its public handle. */
export function redactSecrets(text: string): string {
  return text.replace(SECRET_PATTERN, (_m, handle: string | undefined) => (handle ? `${handle}_…` : 'rims_…'));
}

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
        paths: ['authorization', '*.authorization', '*.headers.authorization', 'headers.authorization', 'apiKey', '*.apiKey', 'api_key', '*.api_key', 'token', '*.token'],
        censor: '[redacted]',
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
