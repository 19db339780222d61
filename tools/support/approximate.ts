import { z } from 'zod';
import { isFields, type ToolContext, type ToolOutput } from '../../src/mcp/tool-kit.js';
import { runPlain } from './project.js';

type Row = Record<string, unknown>;

/** The fields that say which figures of a result are approximate or partial, and which could not be computed and why. */
export const APPROXIMATE = {
  approximate: z.array(z.string()).optional().describe('Figures of this result the API calls approximate or partial, each with what it leaves out.'),
};
export const NOT_COMPUTED = {
  not_computed: z.array(z.string()).optional().describe('Rates and averages the API gave no value for, each with why (a count of 0 it would divide by).'),
};

/** The spec's words on the summary's figures (insights_summary: "Per-rep rates are approximate; speed-to-lead counts only cover the period since the feature began"). */
const PER_REP_RATES = 'per_rep show_rate and booking_rate are approximate (the API says so): compare reps by them, do not report them as exact.';
const SPEED =
  'speed_to_lead, speed_buckets and the first_response and followup figures of per_rep count only replies since the speed-to-lead feature began: for a window that starts earlier they are partial.';

/** A campaign filter's gap (lead: campaign_id is null for recent rows and never back-filled). */
export const CAMPAIGN_FILTER =
  'campaign_id: leads of roughly the last 15 minutes, and rows not touched since, have no campaign recorded, so this page misses them.';

/** Meeting times (meeting: "Times can lag a change on the host's calendar by up to 15 minutes"). */
export const MEETING_TIMES = "starts_at and ends_at can lag a change on the host's calendar by up to 15 minutes.";

/** A rate or average of the summary, and the count it divides by: when the count is 0 there is nothing to divide. */
interface Ratio {
  field: string;
  count: string;
  none: string;
}
const HEADLINE: Ratio[] = [
  { field: 'show_rate', count: 'meetings_with_outcome', none: 'no meeting has an outcome' },
  { field: 'booking_rate', count: 'total_interested_leads', none: 'no interested lead' },
];
const SPEED_TO_LEAD: Ratio[] = [
  { field: 'first_response_avg_sec', count: 'first_response_count', none: 'no first response counted' },
  { field: 'followup_avg_sec', count: 'followup_count', none: 'no follow-up counted' },
];
const PER_REP: Ratio[] = [
  { field: 'show_rate', count: 'meetings_with_outcome', none: 'none of their meetings has an outcome' },
  { field: 'booking_rate', count: 'interested_leads', none: 'no interested lead' },
  ...SPEED_TO_LEAD,
];
const BUCKETS: Ratio[] = [
  { field: 'booking_rate', count: 'n', none: 'no lead in the bucket' },
  { field: 'show_rate', count: 'booked', none: 'no booked meeting in the bucket' },
];

const absent = (v: unknown) => v === null || v === undefined;

/**
 * Why each missing rate of these records has no value, one sentence per field and reason:
 * "per_rep show_rate of usr_raj_acme, usr_cy_acme: none of their meetings has an outcome (meetings_with_outcome 0)".
 */
function whyMissing(where: string, records: Row[], ratios: Ratio[], name?: string): string[] {
  const out: string[] = [];
  for (const r of ratios) {
    const missing = records.filter((rec) => r.field in rec || rec[r.count] !== undefined).filter((rec) => absent(rec[r.field]));
    const zero = missing.filter((rec) => rec[r.count] === 0);
    const other = missing.filter((rec) => rec[r.count] !== 0);
    const of = (recs: Row[]) => (name ? ` of ${recs.map((rec) => String(rec[name])).join(', ')}` : '');
    if (zero.length) out.push(`${where} ${r.field}${of(zero)}: ${r.none} (${r.count} 0).`);
    if (other.length) out.push(`${where} ${r.field}${of(other)}: the API gave no value.`);
  }
  return out;
}

/** get_insights_summary: the summary as the API gives it, with what is approximate and what could not be computed said. */
export async function runSummary(ctx: ToolContext, args: Row): Promise<ToolOutput> {
  const s = (await runPlain(ctx, args)).structured;
  const rows = (v: unknown) => (Array.isArray(v) ? v.filter(isFields) : []);
  const perRep = rows(s.per_rep);
  const approximate = [...(perRep.length ? [PER_REP_RATES] : []), ...(s.speed_to_lead || rows(s.speed_buckets).length ? [SPEED] : [])];
  const notComputed = [
    ...whyMissing('headline', isFields(s.headline) ? [s.headline] : [], HEADLINE),
    ...whyMissing('speed_to_lead', isFields(s.speed_to_lead) ? [s.speed_to_lead] : [], SPEED_TO_LEAD),
    ...whyMissing('per_rep', perRep, PER_REP, 'member_id'),
    ...whyMissing('speed_buckets', rows(s.speed_buckets), BUCKETS, 'label'),
  ];
  return { structured: { ...s, approximate, not_computed: notComputed } };
}
