import { describe, expect, it } from 'vitest';
import { inBusinessHours, isBusinessTime, scheduleProblem } from './escalation-hours';

const weekdaysNewYork = { mode: 'WEEKDAYS', timezone: 'America/New_York', days: [] };

describe('business hours', () => {
  it('reads Monday to Friday 9 to 5 on the wall clock of the time zone', () => {
    // Monday 23 November 2026; New York is UTC-5 then.
    expect(inBusinessHours(weekdaysNewYork, new Date('2026-11-23T13:59:00Z'))).toBe(false);
    expect(inBusinessHours(weekdaysNewYork, new Date('2026-11-23T14:00:00Z'))).toBe(true);
    expect(inBusinessHours(weekdaysNewYork, new Date('2026-11-23T21:59:00Z'))).toBe(true);
    expect(inBusinessHours(weekdaysNewYork, new Date('2026-11-23T22:00:00Z'))).toBe(false);
    // Saturday noon in New York.
    expect(inBusinessHours(weekdaysNewYork, new Date('2026-11-28T17:00:00Z'))).toBe(false);
    // Summer time: UTC-4.
    expect(inBusinessHours(weekdaysNewYork, new Date('2026-07-06T13:00:00Z'))).toBe(true);
  });

  it('uses custom days, a window may end at midnight, and out of office closes the office', () => {
    const sundays = { mode: 'CUSTOM', timezone: 'UTC', days: [{ day: 7, start: '20:00', end: '24:00' }] };
    expect(inBusinessHours(sundays, new Date('2026-11-29T23:59:00Z'))).toBe(true);
    expect(inBusinessHours(sundays, new Date('2026-11-30T00:00:00Z'))).toBe(false);
    const at = new Date('2026-11-23T15:00:00Z');
    const period = { startsAt: new Date('2026-11-23T00:00:00Z'), endsAt: new Date('2026-11-24T00:00:00Z') };
    expect(isBusinessTime(weekdaysNewYork, [], at)).toBe(true);
    expect(isBusinessTime(weekdaysNewYork, [period], at)).toBe(false);
    // A period is over at its end.
    expect(isBusinessTime(weekdaysNewYork, [{ ...period, endsAt: at }], at)).toBe(true);
  });

  it('names what is wrong with custom days', () => {
    expect(scheduleProblem([])).toBe('ESCALATION_HOURS_DAYS_REQUIRED');
    expect(
      scheduleProblem([
        { day: 1, start: '09:00', end: '12:00' },
        { day: 1, start: '13:00', end: '17:00' },
      ]),
    ).toBe('ESCALATION_HOURS_DUPLICATE_DAY');
    expect(scheduleProblem([{ day: 2, start: '09:00', end: '09:00' }])).toBe(
      'ESCALATION_HOURS_INVALID_WINDOW',
    );
    expect(scheduleProblem([{ day: 2, start: '00:00', end: '24:00' }])).toBeNull();
  });
});
