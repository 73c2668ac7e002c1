import { localToEpochMinutes, parseLocalDate, weekdayIndex } from '../time/zone.ts';
import {
  type AvailabilityRules,
  type HoursRange,
  parseInstant,
  parseLocalTime,
  WEEKDAYS,
} from './schemas.ts';

/**
 * Open time as absolute intervals: weekly hours read in the service zone, a
 * date's `HOURS_DATE` replacing its weekday, `CLOSED_DATE` removing the date,
 * `CLOSED_WINDOW` cut out. Touching ranges merge, so a range ending `24:00`
 * joins one starting `00:00` the next day. A boundary at a skipped local time
 * moves forward with the clock.
 */

/** Ranges of one day in minutes since local midnight. */
type DayRanges = readonly (readonly [number, number])[];

export interface CompiledHours {
  timeZone: string;
  weekly: readonly DayRanges[];
  hoursByDate: ReadonlyMap<number, DayRanges>;
  closedDates: ReadonlySet<number>;
  /** Closed windows in epoch minutes, sorted by start. */
  closedStarts: readonly number[];
  closedEnds: readonly number[];
}

function toDayRanges(ranges: readonly HoursRange[]): DayRanges {
  return ranges.map((range) => [
    parseLocalTime(range.start) as number,
    parseLocalTime(range.end, true) as number,
  ]);
}

export function compileHours(timeZone: string, availability: AvailabilityRules): CompiledHours {
  const hoursByDate = new Map<number, DayRanges>();
  const closedDates = new Set<number>();
  const windows: [number, number][] = [];
  for (const exception of availability.exceptions) {
    if (exception.type === 'CLOSED_DATE') closedDates.add(parseLocalDate(exception.date));
    else if (exception.type === 'HOURS_DATE')
      hoursByDate.set(parseLocalDate(exception.date), toDayRanges(exception.ranges));
    else {
      windows.push([
        (parseInstant(exception.startsAt) as number) / 60_000,
        (parseInstant(exception.endsAt) as number) / 60_000,
      ]);
    }
  }
  windows.sort((a, b) => a[0] - b[0]);
  return {
    timeZone,
    weekly: WEEKDAYS.map((weekday) => toDayRanges(availability.weeklyHours[weekday])),
    hoursByDate,
    closedDates,
    closedStarts: windows.map((window) => window[0]),
    closedEnds: windows.map((window) => window[1]),
  };
}

/** Sorted, disjoint, non-touching open intervals in epoch minutes. */
export interface OpenTime {
  starts: number[];
  ends: number[];
}

/**
 * Open time over the local days `fromDay` to `toDay`. With `ignoreClosures`,
 * closed dates and windows are left in: telling `CLOSED` from
 * `OUTSIDE_HOURS` asks whether the interval would be open without them.
 */
export function openTime(
  hours: CompiledHours,
  fromDay: number,
  toDay: number,
  ignoreClosures = false,
): OpenTime {
  const starts: number[] = [];
  const ends: number[] = [];
  for (let day = fromDay; day <= toDay; day++) {
    if (!ignoreClosures && hours.closedDates.has(day)) continue;
    const ranges = hours.hoursByDate.get(day) ?? hours.weekly[weekdayIndex(day)] ?? [];
    for (const [from, to] of ranges) {
      const start = localToEpochMinutes(hours.timeZone, day, from, 'forward') as number;
      const end = localToEpochMinutes(hours.timeZone, day, to, 'forward') as number;
      if (end <= start) continue;
      const last = ends.length - 1;
      if (last >= 0 && start <= (ends[last] as number)) {
        ends[last] = Math.max(ends[last] as number, end);
      } else {
        starts.push(start);
        ends.push(end);
      }
    }
  }
  if (ignoreClosures || hours.closedStarts.length === 0) return { starts, ends };
  return subtractWindows({ starts, ends }, hours.closedStarts, hours.closedEnds);
}

function subtractWindows(
  open: OpenTime,
  closedStarts: readonly number[],
  closedEnds: readonly number[],
): OpenTime {
  const starts: number[] = [];
  const ends: number[] = [];
  for (let index = 0; index < open.starts.length; index++) {
    let start = open.starts[index] as number;
    const end = open.ends[index] as number;
    for (let closed = 0; closed < closedStarts.length && start < end; closed++) {
      const closedStart = closedStarts[closed] as number;
      const closedEnd = closedEnds[closed] as number;
      if (closedEnd <= start || closedStart >= end) continue;
      if (closedStart > start) {
        starts.push(start);
        ends.push(closedStart);
      }
      start = Math.max(start, closedEnd);
    }
    if (start < end) {
      starts.push(start);
      ends.push(end);
    }
  }
  return { starts, ends };
}

/** Index of the open interval with `start ≤ instant < end`, or -1. */
function intervalHolding(open: OpenTime, instant: number): number {
  let low = 0;
  let high = open.starts.length - 1;
  let found = -1;
  while (low <= high) {
    const middle = (low + high) >>> 1;
    if ((open.starts[middle] as number) <= instant) {
      found = middle;
      low = middle + 1;
    } else {
      high = middle - 1;
    }
  }
  return found >= 0 && instant < (open.ends[found] as number) ? found : -1;
}

/** `WITHIN_HOURS`: the whole of `[start, end)` is open. */
export function isWithinHours(open: OpenTime, start: number, end: number): boolean {
  const index = intervalHolding(open, start);
  return index >= 0 && end <= (open.ends[index] as number);
}

/**
 * `HANDOVER_WITHIN_HOURS`: the start is in open time and so is the end (an
 * end at closing time counts, as it does for `WITHIN_HOURS`); what lies
 * between, closures included, does not matter.
 */
export function isHandoverWithinHours(open: OpenTime, start: number, end: number): boolean {
  // Instants are whole minutes, so an end in (open, close] is the minute before it in [open, close).
  return intervalHolding(open, start) >= 0 && intervalHolding(open, end - 1) >= 0;
}

/** Whether `[start, end)` overlaps a closed window. */
export function overlapsClosedWindow(hours: CompiledHours, start: number, end: number): boolean {
  for (let index = 0; index < hours.closedStarts.length; index++) {
    if ((hours.closedStarts[index] as number) >= end) return false;
    if ((hours.closedEnds[index] as number) > start) return true;
  }
  return false;
}
