import { describe, expect, it } from 'vitest';
import { addDays, day, iso } from '../../src/sandbox/seed/time.js';

describe('General rule 4: timestamps are ISO 8601 UTC with a trailing Z; calendar days are YYYY-MM-DD', () => {
  it.each([
    0,
    999,
    1000,
    86_399_999,
    86_400_000,
    Date.parse('2026-11-20T12:34:56.789Z'),
    Date.parse('1969-12-31T23:59:59Z'),
    Date.parse('2028-02-29T00:00:00Z'),
  ])('iso(%i) equals toISOString without milliseconds', (ms) => {
    expect(iso(ms)).toBe(new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z'));
    expect(iso(new Date(ms))).toBe(iso(ms));
  });
  it('days and day arithmetic cross month and leap-day edges', () => {
    expect(day(Date.parse('2026-11-20T23:59:59Z'))).toBe('2026-11-20');
    expect(addDays('2028-02-28', 1)).toBe('2028-02-29');
    expect(addDays('2026-12-31', 1)).toBe('2027-01-01');
    expect(addDays('2026-03-01', -1)).toBe('2026-02-28');
  });
});
