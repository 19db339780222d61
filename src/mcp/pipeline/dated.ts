import { z } from 'zod';
import { isTimeField } from '../../api/bodies.js';
import type { Endpoint } from '../../api/endpoints.js';
import { ApiError, ValidationError } from '../../client/errors.js';
import { ToolError } from '../errors.js';
import { today, todayLine } from '../view/today.js';

/** Query parameter kinds that take a day or a date-time. */
const TIME_KINDS = new Set(['day', 'dateTime', 'dayOrDateTime']);

/** Whether an argument of the endpoint takes a day or a time: a query date or a body day or wall-clock time. */
export function isTimeArgument(e: Endpoint, name: string): boolean {
  const kind = e.query[name]?.kind;
  if (kind !== undefined) return TIME_KINDS.has(kind);
  return e.body instanceof z.ZodObject && isTimeField((e.body.shape as Record<string, z.ZodType>)[name]);
}

/**
 * The sentence a refusal of a day or time ends with: today's date and weekday in UTC and in the
 * key owner's timezone, so "next monday" refused can be counted from somewhere. Undefined for
 * any other failure. Whoever refused (this server, the client's checks, the API) names the argument.
 */
export function todayForRefusal(e: Endpoint, err: unknown, nowMs: number, zone: string | null): string | undefined {
  const param = err instanceof ValidationError || err instanceof ApiError || err instanceof ToolError ? err.param : undefined;
  const top = param?.split('.')[0];
  if (!top || !isTimeArgument(e, top)) return undefined;
  return `${todayLine(today(nowMs, zone))} Words such as tomorrow or next monday are not read: count from today.`;
}
