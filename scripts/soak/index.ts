/**
 * The second attack's parts of `npm run soak` (items 1, 2, 3 and 7 of its issue), or alone:
 * `node --import tsx scripts/soak/index.ts --size 100000 --churn-ms 10000 --burst 150`.
 * Needs dist/ (npm run build). Prints one JSON line of figures; these parts measure and
 * break nothing by themselves except a crash, a burst that locks out another key or answers
 * 200 to an initialize whose session is then closed, a refused body read past its limit or
 * not answered with its status, or a 101st subscription accepted.
 */
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { burstRun } from './burst.js';
import { churnRun } from './churn.js';
import { endlessBodyRun } from './endless-body.js';
import { regexServerRun, regexTimings } from './regex.js';

const log = (line: string) => process.stderr.write(`soak: ${line}\n`);

export async function attackRun(o: { size: number; burst: number; churnMs: number; bodyMs: number }) {
  log(`slow regex: fence check and HTML-to-text on ${o.size}-character hostile inputs, then a 60 KB body and a 20,000-character name through the server`);
  const regex = { offline: regexTimings(o.size), server: await regexServerRun() };
  log(`burst: ${o.burst} initializes at once with one key`);
  const burst = await burstRun(o.burst);
  log(`endless bodies: chunked bodies on refused requests, at most ${o.bodyMs} ms each`);
  const endless = await endlessBodyRun(o.bodyMs);
  log(`subscription churn: ${o.churnMs} ms of subscribe/unsubscribe, then 101 subscriptions`);
  const churn = await churnRun(o.churnMs);
  return { regex, burst, endless, churn };
}

/** What breaks the run. */
export function attackBroken(r: Awaited<ReturnType<typeof attackRun>>): number {
  const endless = [r.endless.no_key, r.endless.wrong_host, r.endless.not_found];
  // Each refused request is closed by the server, and its answer (401, 403, 404) reached the client.
  const open = endless.filter((x, i) => !x.closed_by_server || x.status !== [401, 403, 404][i]).length;
  const burst = (r.burst.other_key_gets_in ? 0 : 1) + (r.burst.got_200_session_gone === 0 ? 0 : 1);
  return open + burst + (r.churn.first_refused === 101 ? 0 : 1) + (r.churn.alive ? 0 : 1);
}

export const ATTACK_OPTIONS = {
  size: { type: 'string', default: '100000' },
  burst: { type: 'string', default: '150' },
  'churn-ms': { type: 'string', default: '10000' },
  'body-ms': { type: 'string', default: '8000' },
} as const;

export function attackOptions(v: Record<string, string | boolean | undefined>) {
  return { size: Number(v.size), burst: Number(v.burst), churnMs: Number(v['churn-ms']), bodyMs: Number(v['body-ms']) };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { values } = parseArgs({ options: ATTACK_OPTIONS });
  const r = await attackRun(attackOptions(values));
  process.stdout.write(`${JSON.stringify(r)}\n`);
  process.exit(attackBroken(r) === 0 ? 0 : 1);
}
