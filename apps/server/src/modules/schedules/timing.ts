import type { TaskDueInterval, TaskScheduleInterval } from '@vigil/contracts';

/** Times are in UTC: the 1st and 15th, weekends and months are those of UTC. */

const MINUTE = 60_000;
const FIXED_MS: Record<string, number> = {
  minute: MINUTE,
  hour: 60 * MINUTE,
  day: 1440 * MINUTE,
  week: 7 * 1440 * MINUTE,
};
const MONTH_MS = 30 * FIXED_MS.day!;

/** A length to compare intervals by (a month counts as 30 days). */
export function intervalLength(interval: TaskScheduleInterval): number {
  return interval.count * (FIXED_MS[interval.unit] ?? MONTH_MS);
}

function addMonths(at: Date, months: number, day?: number): Date {
  const next = new Date(at);
  next.setUTCDate(1);
  next.setUTCMonth(next.getUTCMonth() + months);
  const last = new Date(Date.UTC(next.getUTCFullYear(), next.getUTCMonth() + 1, 0)).getUTCDate();
  next.setUTCDate(Math.min(day ?? at.getUTCDate(), last));
  return next;
}

/** The day of the month a monthly unit runs on; null for the other units. */
export function monthDayOf(unit: string): number | null {
  return unit === 'month_begin' ? 1 : unit === 'month_15' ? 15 : null;
}

/** The schedule's next time after `at`. */
export function nextOccurrence(at: Date, interval: TaskScheduleInterval): Date {
  const day = monthDayOf(interval.unit);
  if (day !== null) return addMonths(at, interval.count, day);
  return new Date(at.getTime() + intervalLength(interval));
}

/** The first time of the schedule after `now`, counting from `at` (at itself when it is after now). */
export function firstOccurrenceAfter(at: Date, interval: TaskScheduleInterval, now: Date): Date {
  let next = at;
  const fixed = FIXED_MS[interval.unit];
  if (fixed && next <= now) {
    // Jump close by arithmetic, then step.
    const step = fixed * interval.count;
    next = new Date(next.getTime() + Math.floor((now.getTime() - next.getTime()) / step) * step);
  }
  while (next <= now) next = nextOccurrence(next, interval);
  return next;
}

/** A time on Saturday or Sunday moves to Monday at the same time of day when weekends are skipped. */
export function runTimeOf(at: Date, skipWeekends: boolean): Date {
  if (!skipWeekends) return at;
  const weekday = at.getUTCDay();
  const days = weekday === 6 ? 2 : weekday === 0 ? 1 : 0;
  return new Date(at.getTime() + days * FIXED_MS.day!);
}

/** The due date of a task created at `at`. */
export function dueDateOf(at: Date, dueIn: TaskDueInterval | null): Date | null {
  if (!dueIn) return null;
  if (dueIn.unit === 'month') return addMonths(at, dueIn.count);
  if (dueIn.unit === 'year') return addMonths(at, 12 * dueIn.count);
  return new Date(at.getTime() + dueIn.count * FIXED_MS[dueIn.unit]!);
}
