import { WEEKDAY_BUSINESS_HOURS, type EscalationDayWindow } from '@vigil/contracts';

const WEEKDAYS: Record<string, number> = { Mon: 1, Tue: 2, Wed: 3, Thu: 4, Fri: 5, Sat: 6, Sun: 7 };

export interface BusinessHours {
  mode: string;
  timezone: string;
  days: EscalationDayWindow[];
}

/** Whether `name` is an IANA time zone this runtime knows. */
export function isTimeZone(name: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

/** The windows in effect: Monday to Friday 09:00 to 17:00 for WEEKDAYS, else the custom ones. */
export const windowsOf = (hours: BusinessHours): EscalationDayWindow[] =>
  hours.mode === 'CUSTOM' ? hours.days : WEEKDAY_BUSINESS_HOURS;

const minuteOf = (time: string) => Number(time.slice(0, 2)) * 60 + Number(time.slice(3, 5));

/** Whether an instant falls in a business-hours window, on the wall clock of the schedule's zone. */
export function inBusinessHours(hours: BusinessHours, at: Date): boolean {
  const timeZone = isTimeZone(hours.timezone) ? hours.timezone : 'UTC';
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-US', {
      timeZone,
      weekday: 'short',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    })
      .formatToParts(at)
      .map((part) => [part.type, part.value]),
  );
  const day = WEEKDAYS[parts.weekday!];
  const minute = Number(parts.hour) * 60 + Number(parts.minute);
  return windowsOf(hours).some(
    (window) => window.day === day && minute >= minuteOf(window.start) && minute < minuteOf(window.end),
  );
}

/** Business hours and not out of office. */
export const isBusinessTime = (
  hours: BusinessHours,
  outOfOffice: { startsAt: Date; endsAt: Date }[],
  at: Date,
) => inBusinessHours(hours, at) && !outOfOffice.some((period) => period.startsAt <= at && at < period.endsAt);

/** The checks of a custom schedule beyond its shape: each day once, each window ending after it starts. */
export function scheduleProblem(
  days: EscalationDayWindow[],
):
  | 'ESCALATION_HOURS_DAYS_REQUIRED'
  | 'ESCALATION_HOURS_DUPLICATE_DAY'
  | 'ESCALATION_HOURS_INVALID_WINDOW'
  | null {
  if (days.length === 0) return 'ESCALATION_HOURS_DAYS_REQUIRED';
  if (new Set(days.map((window) => window.day)).size !== days.length) return 'ESCALATION_HOURS_DUPLICATE_DAY';
  if (days.some((window) => minuteOf(window.start) >= minuteOf(window.end))) {
    return 'ESCALATION_HOURS_INVALID_WINDOW';
  }
  return null;
}
