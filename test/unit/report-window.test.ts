import { describe, expect, it } from 'vitest';
import { MAX_WINDOW_DAYS, isWindow, reportWindow } from '../../src/mcp/resources-prompts/report-window.js';

const NOW = new Date('2026-11-20T23:30:00Z');

describe('pipeline_report window: "Nd" is the N days up to today (UTC), as the insights default counts 30 days before to', () => {
  it('30d, 7d and 1d end today and start N days before', () => {
    expect(reportWindow('30d', NOW)).toEqual({ from: '2026-10-21', to: '2026-11-20', label: 'the last 30 days' });
    expect(reportWindow('7d', NOW)).toMatchObject({ from: '2026-11-13', to: '2026-11-20' });
    expect(reportWindow('1d', NOW)).toMatchObject({ from: '2026-11-19', label: 'the last 1 day' });
  });

  it('today is the UTC day, whatever the local clock', () => {
    expect(reportWindow('1d', new Date('2026-03-01T00:10:00Z'))).toEqual({ from: '2026-02-28', to: '2026-03-01', label: 'the last 1 day' });
  });

  it(`0d and more than ${MAX_WINDOW_DAYS} days are refused`, () => {
    expect(() => reportWindow('0d', NOW)).toThrow(/outside/);
    expect(() => reportWindow(`${MAX_WINDOW_DAYS + 1}d`, NOW)).toThrow(/outside/);
    expect(reportWindow(`${MAX_WINDOW_DAYS}d`, NOW).from).toBe('2025-11-19');
  });
});

describe('pipeline_report window: "YYYY-MM-DD..YYYY-MM-DD" of at most 366 days, real days only', () => {
  it('a range passes through as its two days', () => {
    expect(reportWindow('2026-01-01..2026-03-31', NOW)).toEqual({ from: '2026-01-01', to: '2026-03-31', label: '2026-01-01 to 2026-03-31' });
    expect(reportWindow('2026-05-05..2026-05-05', NOW).from).toBe('2026-05-05');
  });

  it('a reversed range, a day that does not exist, or over 366 days is refused', () => {
    expect(() => reportWindow('2026-03-01..2026-01-01', NOW)).toThrow(/ends before/);
    expect(() => reportWindow('2026-02-30..2026-03-31', NOW)).toThrow(/does not exist/);
    expect(() => reportWindow('2025-01-01..2026-01-03', NOW)).toThrow(/more than 366/);
    expect(reportWindow('2024-01-01..2024-12-31', NOW).to).toBe('2024-12-31');
  });

  it('anything else is neither form', () => {
    for (const s of ['last month', '30', 'd30', '2026-01-01', '2026-1-1..2026-2-1', '']) {
      expect(isWindow(s), s).toBe(false);
      expect(() => reportWindow(s, NOW)).toThrow(/neither/);
    }
    expect(isWindow('90d')).toBe(true);
  });
});
