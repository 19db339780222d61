/**
 * The words a person reads for the API's values: statuses, classifications, states and template
 * variables. A value this table does not know shows as itself, made readable, never as another.
 */
import { unfence } from './fence.js';

const STATUS: Record<string, string> = {
  interested: 'Interested',
  not_interested: 'Not interested',
  automated: 'Automated',
  unsubscribed: 'Unsubscribed',
  untagged: 'Untagged',
  dnc: 'Do not contact',
};

const CLASSIFICATION: Record<string, string> = {
  INTERESTED: 'Interested',
  NOT_INTERESTED: 'Not interested',
  BAD_TIMING: 'Bad timing',
  WRONG_PERSON: 'Wrong person',
  AUTOMATED: 'Automated reply',
  DNC: 'Do not contact',
  OUT_OF_OFFICE: 'Out of office',
};

const STATE: Record<string, string> = { active: 'Active', booked: 'Meeting booked', disqualified: 'Disqualified' };

const VARIABLE: Record<string, string> = {
  first_name: 'Their first name',
  last_name: 'Their last name',
  company_name: 'Their company',
  title: 'Their job title',
  email: 'Their email',
  sender_first_name: 'Your first name',
  sender_last_name: 'Your last name',
  sender_name: 'Your name',
  sender_email: 'Your email',
  sender_company: 'Your company',
  cal_link: 'Your booking link',
  competitor_name: 'Their current vendor',
};

/** "legacy_hold" → "Legacy hold": an unknown value, readable and still itself. */
export function readable(value: string): string {
  const words = value.replace(/[_-]+/g, ' ').trim().toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** A value the server fenced (one outside the API's enum is an outsider's text) is read without its fence. */
const lookup = (table: Record<string, string>) => (raw: unknown) => {
  const value = unfence(raw);
  return value ? (Object.hasOwn(table, value) ? table[value]! : readable(value)) : '';
};

export const statusLabel = lookup(STATUS);
export const classificationLabel = lookup(CLASSIFICATION);
export const stateLabel = lookup(STATE);
/** A template variable in words; AI variables (ai_opener) keep "AI" in capitals. */
export const variableLabel = (name: string) => (Object.hasOwn(VARIABLE, name) ? VARIABLE[name]! : readable(name).replace(/^Ai\b/, 'AI'));

/** Where a draft's value came from, said beside it. */
export const ORIGIN = { lead: "from the lead's and sender's records", override: 'your value', unresolved: 'no value yet' } as const;

/** A lead as a person names them: their name, else their email, else their id. */
export function leadName(l: { first_name?: unknown; last_name?: unknown; email?: unknown; id?: unknown }): string {
  return [unfence(l.first_name), unfence(l.last_name)].filter(Boolean).join(' ') || unfence(l.email) || String(l.id ?? '');
}
