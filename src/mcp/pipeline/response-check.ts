import { z } from 'zod';
import { checkHint } from '../../client/retry.js';
import { type Endpoint, endpoint } from '../../api/endpoints.js';
import { returnSchema } from '../../api/returns.js';
import { InvalidResponseError } from '../errors.js';
import type { ApiClient } from '../declare/tool-context.js';

/** Each schema compiled once: the generated validator checks the same rules in a third of the time and builds no copy. */
const compiled = new WeakMap<z.ZodType, z.ZodType>();

/** The issue that refuses `value`, or null when `schema` accepts it: the compiled validator answers; the interpreter only explains a refusal. */
function refusal(schema: z.ZodType, value: unknown): string | null {
  let fast = compiled.get(schema);
  if (!fast) {
    fast = z.compile(schema);
    compiled.set(schema, fast);
  }
  if (fast.validate(value)) return null;
  const ok = schema.safeParse(value);
  return ok.success ? null : firstIssue(ok.error);
}

function firstIssue(error: z.ZodError): string {
  const i = error.issues[0]!;
  return `${i.path.length ? i.path.join('.') : 'the body'}: ${i.message}`;
}

/** The client, with every JSON answer checked against its endpoint's return schema before a tool sees it (the chain's first layer). */
export function checkedApi(api: ApiClient): ApiClient {
  return {
    async call(name, req) {
      const r = await api.call(name, req);
      const e = endpoint(name);
      if (e.returns === 'binary') return r;
      const issue = refusal(returnSchema(e), r.data);
      if (issue !== null) throw new InvalidResponseError(e, issue, e.write ? checkHint(e, req.path ?? {}, req.body) : null);
      return r;
    },
  };
}

/** A tool's own result that fails its published output schema is refused the same way. */
export function checkOutput(e: Endpoint, output: z.ZodType, structured: unknown): void {
  const issue = refusal(output, structured);
  if (issue !== null) throw new InvalidResponseError(e, issue, null);
}
