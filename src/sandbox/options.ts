import { z } from 'zod';
import { LOG_LEVELS, type LogLevel } from '../log.js';
import { parseFaults } from './faults.js';

/** startSandbox options; the CLI flags of docs/sandbox.md map onto these one to one. */
export const sandboxOptionsSchema = z.strictObject({
  host: z.string().default('127.0.0.1'),
  port: z.number().int().min(0).max(65535).default(4010),
  seed: z.number().int().min(0).default(1),
  now: z
    .string()
    .refine((s) => !Number.isNaN(Date.parse(s)), { message: 'must be an ISO timestamp' })
    .optional(),
  leads: z.number().int().min(1).max(1_000_000).default(500),
  rateWindowMs: z.number().int().min(100).max(3_600_000).default(60_000),
  rateLimits: z.boolean().default(true),
  /** Per-bucket figures other than the spec's, for fast tests of the client's limiter. */
  bucketLimits: z
    .strictObject({
      read: z.number().int().min(1).optional(),
      write: z.number().int().min(1).optional(),
      upstream: z.number().int().min(1).optional(),
      thread: z.number().int().min(1).optional(),
      max_concurrent: z.number().int().min(1).optional(),
    })
    .default({}),
  faults: z
    .string()
    .default('none')
    .superRefine((s, c) => {
      try {
        parseFaults(s);
      } catch (e) {
        c.addIssue({ code: 'custom', message: (e as Error).message });
      }
    }),
  /** Every this many seconds one seeded lead replies (simulateInboundReply), in turn; 0: never. */
  replyEverySeconds: z.number().min(0).max(86_400).default(0),
  logLevel: z.enum(LOG_LEVELS as [LogLevel, ...LogLevel[]]).default('warn'),
});
export type SandboxOptions = z.input<typeof sandboxOptionsSchema>;
