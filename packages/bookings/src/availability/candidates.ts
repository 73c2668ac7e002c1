import { epochMinutesToLocal, localToEpochMinutes, weekdayIndex } from '../time/zone.ts';
import type { BookableService } from './rules.ts';
import { MINUTES_PER_DAY, parseLocalTime, WEEKDAYS } from './schemas.ts';

/**
 * Candidate intervals (fixed slots, or grid starts with each duration),
 * starting in `[windowStart, windowEnd)` (epoch minutes; ends may lie beyond),
 * sorted by start then end. A start at a local time the zone skips gives
 * none; a repeated one, its first occurrence.
 */
export interface Candidates {
  starts: number[];
  ends: number[];
}

/** The end of a duration from a local start: whole days count local days. */
function endOf(
  timeZone: string,
  day: number,
  minuteOfDay: number,
  start: number,
  durationMinutes: number,
): number {
  if (durationMinutes % MINUTES_PER_DAY !== 0) return start + durationMinutes;
  return localToEpochMinutes(
    timeZone,
    day + durationMinutes / MINUTES_PER_DAY,
    minuteOfDay,
    'forward',
  ) as number;
}

/** Whether an instant lies on the grid of `interval` minutes from local midnight. */
export function isOnGrid(timeZone: string, instant: number, interval: number): boolean {
  return epochMinutesToLocal(timeZone, instant).minuteOfDay % interval === 0;
}

/**
 * Starts every `startIntervalMinutes` from local midnight with the given
 * duration; `endOnGrid` (EXACT_RANGE) also keeps only ends on the grid.
 */
export function gridCandidates(
  timeZone: string,
  windowStart: number,
  windowEnd: number,
  startIntervalMinutes: number,
  durationMinutes: number,
  endOnGrid: boolean,
): Candidates {
  const starts: number[] = [];
  const ends: number[] = [];
  const firstDay = epochMinutesToLocal(timeZone, windowStart).day;
  const lastDay = epochMinutesToLocal(timeZone, windowEnd - 1).day;
  for (let day = firstDay; day <= lastDay; day++) {
    for (let minute = 0; minute < MINUTES_PER_DAY; minute += startIntervalMinutes) {
      const start = localToEpochMinutes(timeZone, day, minute, 'skip');
      if (start === null || start < windowStart || start >= windowEnd) continue;
      const end = endOf(timeZone, day, minute, start, durationMinutes);
      if (endOnGrid && !isOnGrid(timeZone, end, startIntervalMinutes)) continue;
      starts.push(start);
      ends.push(end);
    }
  }
  return { starts, ends };
}

/** `fixedSlots` on their weekdays; several slots at one start sort by end, identical ones count once. */
export function fixedSlotCandidates(
  service: Pick<BookableService, 'timezone' | 'fixedSlots'>,
  windowStart: number,
  windowEnd: number,
): Candidates {
  const timeZone = service.timezone;
  const slots = (service.fixedSlots ?? []).map((slot) => ({
    weekdays: new Set(slot.weekdays.map((weekday) => WEEKDAYS.indexOf(weekday))),
    minuteOfDay: parseLocalTime(slot.startTime) as number,
    durationMinutes: slot.durationMinutes,
  }));
  const pairs: [number, number][] = [];
  const firstDay = epochMinutesToLocal(timeZone, windowStart).day;
  const lastDay = epochMinutesToLocal(timeZone, windowEnd - 1).day;
  for (let day = firstDay; day <= lastDay; day++) {
    const weekday = weekdayIndex(day);
    for (const slot of slots) {
      if (!slot.weekdays.has(weekday)) continue;
      const start = localToEpochMinutes(timeZone, day, slot.minuteOfDay, 'skip');
      if (start === null || start < windowStart || start >= windowEnd) continue;
      pairs.push([start, endOf(timeZone, day, slot.minuteOfDay, start, slot.durationMinutes)]);
    }
  }
  pairs.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  const starts: number[] = [];
  const ends: number[] = [];
  for (const [start, end] of pairs) {
    const last = starts.length - 1;
    if (last >= 0 && starts[last] === start && ends[last] === end) continue;
    starts.push(start);
    ends.push(end);
  }
  return { starts, ends };
}

/** The fixed slot durations that start at this instant, for checking a hold's interval. */
export function fixedSlotEndsAt(
  service: Pick<BookableService, 'timezone' | 'fixedSlots'>,
  start: number,
): number[] {
  const local = epochMinutesToLocal(service.timezone, start);
  if (localToEpochMinutes(service.timezone, local.day, local.minuteOfDay, 'skip') !== start) return [];
  const weekday = WEEKDAYS[weekdayIndex(local.day)];
  return (service.fixedSlots ?? [])
    .filter((slot) => weekday !== undefined && slot.weekdays.includes(weekday))
    .filter((slot) => parseLocalTime(slot.startTime) === local.minuteOfDay)
    .map((slot) => endOf(service.timezone, local.day, local.minuteOfDay, start, slot.durationMinutes));
}
