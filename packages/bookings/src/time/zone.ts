import { Temporal } from 'temporal-polyfill';

/**
 * Wall-clock time in an IANA zone, in the units the availability search
 * computes with: instants as integer epoch minutes, local dates as day numbers
 * (days since 1970-01-01), times of day as minutes since local midnight.
 *
 * The zone rules come from temporal-polyfill (the runtime's zone data). A
 * conversion through it costs tens of microseconds, so each local day is
 * converted once into a cached frame; a day without an offset change (nearly
 * all) then converts any of its times with arithmetic, and only the days of a
 * change take the library's slow path.
 */

const MINUTES_PER_DAY = 1_440;
const MS_PER_MINUTE = 60_000;

/** What a local wall time that occurs twice or never resolves to. */
export type Disambiguation =
  /** Skipped: none (no slot). Repeated: its first occurrence. */
  | 'skip'
  /** Skipped: moved forward by the gap, as the wall clock reads after it. Repeated: first occurrence. */
  | 'forward';

export interface LocalTime {
  /** Days since 1970-01-01 in the zone's calendar. */
  day: number;
  /** Minutes since local midnight, 0 to 1,439. */
  minuteOfDay: number;
}

interface DayFrame {
  /** Epoch minute of the day's first instant (after a gap at midnight, the gap's end). */
  start: number;
  /** Epoch minute of the next day's first instant. */
  end: number;
  /** The UTC offset in minutes when it holds for the whole day, else null (a change happens this day). */
  uniformOffset: number | null;
}

const FRAME_CACHE_LIMIT = 200_000;
let cachedFrames = 0;
const framesByZone = new Map<string, Map<number, DayFrame>>();

/** Year, month and day of a day number (days since 1970-01-01), by integer arithmetic. */
function civilFromDays(day: number): [number, number, number] {
  // H. Hinnant's days_from_civil inverse: eras of 400 years, years starting in March.
  const shifted = day + 719_468;
  const era = Math.floor(shifted / 146_097);
  const dayOfEra = shifted - era * 146_097;
  const yearOfEra = Math.floor(
    (dayOfEra -
      Math.floor(dayOfEra / 1_460) +
      Math.floor(dayOfEra / 36_524) -
      Math.floor(dayOfEra / 146_096)) /
      365,
  );
  const dayOfYear = dayOfEra - (365 * yearOfEra + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100));
  const monthIndex = Math.floor((5 * dayOfYear + 2) / 153);
  const dayOfMonth = dayOfYear - Math.floor((153 * monthIndex + 2) / 5) + 1;
  const month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9;
  return [yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, dayOfMonth];
}

/** "YYYY-MM-DD" of a day number. */
export function formatLocalDate(day: number): string {
  const [year, month, dayOfMonth] = civilFromDays(day);
  return `${pad(year, 4)}-${pad(month)}-${pad(dayOfMonth)}`;
}

/** Day number of "YYYY-MM-DD" (validated by the schemas). */
export function parseLocalDate(date: string): number {
  return Math.floor(Date.parse(`${date}T00:00:00Z`) / (MINUTES_PER_DAY * MS_PER_MINUTE));
}

/** 0 = Monday … 6 = Sunday (1970-01-01 was a Thursday). */
export function weekdayIndex(day: number): number {
  return (((day + 3) % 7) + 7) % 7;
}

function plainDate(day: number): Temporal.PlainDate {
  const [year, month, dayOfMonth] = civilFromDays(day);
  return new Temporal.PlainDate(year, month, dayOfMonth);
}

function startOfDay(timeZone: string, day: number): { start: number; offset: number } {
  const zoned = plainDate(day).toZonedDateTime({ timeZone });
  return {
    start: Math.floor(zoned.epochMilliseconds / MS_PER_MINUTE),
    offset: Math.round(zoned.offsetNanoseconds / 60e9),
  };
}

function frameOf(timeZone: string, day: number): DayFrame {
  let frames = framesByZone.get(timeZone);
  if (!frames) {
    frames = new Map();
    framesByZone.set(timeZone, frames);
  }
  const cached = frames.get(day);
  if (cached) return cached;
  const today = startOfDay(timeZone, day);
  const tomorrow = startOfDay(timeZone, day + 1);
  const isUniform =
    today.offset === tomorrow.offset &&
    today.start === day * MINUTES_PER_DAY - today.offset &&
    tomorrow.start - today.start === MINUTES_PER_DAY;
  const frame: DayFrame = {
    start: today.start,
    end: tomorrow.start,
    uniformOffset: isUniform ? today.offset : null,
  };
  // The frames are facts of the zone data, so a full cache is simply dropped.
  if (cachedFrames >= FRAME_CACHE_LIMIT) {
    for (const zoneFrames of framesByZone.values()) zoneFrames.clear();
    cachedFrames = 0;
  }
  frames.set(day, frame);
  cachedFrames++;
  return frame;
}

/**
 * The instant of a local wall time, in epoch minutes. `minuteOfDay` may be
 * 1,440 (the end of the day, `24:00`): the next day's first instant.
 */
export function localToEpochMinutes(
  timeZone: string,
  day: number,
  minuteOfDay: number,
  disambiguation: Disambiguation,
): number | null {
  if (minuteOfDay >= MINUTES_PER_DAY) {
    return localToEpochMinutes(
      timeZone,
      day + Math.floor(minuteOfDay / MINUTES_PER_DAY),
      minuteOfDay % MINUTES_PER_DAY,
      disambiguation,
    );
  }
  const frame = frameOf(timeZone, day);
  if (frame.uniformOffset !== null) return frame.start + minuteOfDay;
  const wall = plainDate(day).toPlainDateTime({
    hour: Math.floor(minuteOfDay / 60),
    minute: minuteOfDay % 60,
  });
  const earlier = wall.toZonedDateTime(timeZone, { disambiguation: 'earlier' });
  const isSkipped = !earlier.toPlainDateTime().equals(wall);
  if (isSkipped && disambiguation === 'skip') return null;
  const resolved = isSkipped ? wall.toZonedDateTime(timeZone, { disambiguation: 'later' }) : earlier;
  return Math.floor(resolved.epochMilliseconds / MS_PER_MINUTE);
}

/** The local date and time of an instant (epoch minutes). */
export function epochMinutesToLocal(timeZone: string, epochMinute: number): LocalTime {
  // The local day is the UTC day or one either side (offsets stay within ±1 day).
  const utcDay = Math.floor(epochMinute / MINUTES_PER_DAY);
  for (const day of [utcDay, utcDay - 1, utcDay + 1]) {
    const frame = frameOf(timeZone, day);
    if (epochMinute < frame.start || epochMinute >= frame.end) continue;
    if (frame.uniformOffset !== null) return { day, minuteOfDay: epochMinute - frame.start };
    const zoned = Temporal.Instant.fromEpochMilliseconds(epochMinute * MS_PER_MINUTE).toZonedDateTimeISO(
      timeZone,
    );
    return { day, minuteOfDay: zoned.hour * 60 + zoned.minute };
  }
  throw new Error(`no local day holds epoch minute ${epochMinute} in ${timeZone}`);
}

/** The zone's UTC offset in minutes at an instant. */
export function offsetMinutesAt(timeZone: string, epochMinute: number): number {
  const local = epochMinutesToLocal(timeZone, epochMinute);
  return local.day * MINUTES_PER_DAY + local.minuteOfDay - epochMinute;
}

function pad(value: number, width = 2): string {
  return String(value).padStart(width, '0');
}

/** ISO 8601 with the zone's offset at that instant: `2026-03-09T12:30:00-04:00`. */
export function formatInstant(epochMinute: number, timeZone: string): string {
  const local = epochMinutesToLocal(timeZone, epochMinute);
  const offset = local.day * MINUTES_PER_DAY + local.minuteOfDay - epochMinute;
  const absolute = Math.abs(offset);
  const sign = offset < 0 ? '-' : '+';
  return `${formatLocalDate(local.day)}T${pad(Math.floor(local.minuteOfDay / 60))}:${pad(local.minuteOfDay % 60)}:00${sign}${pad(Math.floor(absolute / 60))}:${pad(absolute % 60)}`;
}

/** The same wall time `days` local days later (23 or 25 hours across a change); a skipped time moves forward. */
export function addLocalDays(timeZone: string, epochMinute: number, days: number): number {
  const local = epochMinutesToLocal(timeZone, epochMinute);
  return localToEpochMinutes(timeZone, local.day + days, local.minuteOfDay, 'forward') as number;
}

/**
 * The end of a duration from a start: a whole multiple of 1,440
 * minutes counts local days, any other duration elapsed minutes.
 */
export function endAfter(timeZone: string, startMinute: number, durationMinutes: number): number {
  if (durationMinutes > 0 && durationMinutes % MINUTES_PER_DAY === 0) {
    return addLocalDays(timeZone, startMinute, durationMinutes / MINUTES_PER_DAY);
  }
  return startMinute + durationMinutes;
}

/**
 * The duration of an interval in the contract's minutes: n × 1,440 when the
 * end is the start's wall time n local days later, else elapsed minutes. Its
 * inverse is `endAfter`.
 */
export function durationBetween(timeZone: string, startMinute: number, endMinute: number): number {
  const elapsed = endMinute - startMinute;
  const start = epochMinutesToLocal(timeZone, startMinute);
  const end = epochMinutesToLocal(timeZone, endMinute);
  const days = end.day - start.day;
  if (days > 0 && endMinute === addLocalDays(timeZone, startMinute, days)) return days * MINUTES_PER_DAY;
  return elapsed;
}

/** Started local days (or `unitDays`-day periods) from start to end: Friday 10:00 to Monday 09:00 is 3. */
export function startedLocalPeriods(
  timeZone: string,
  startMinute: number,
  endMinute: number,
  unitDays: number,
): number {
  if (endMinute <= startMinute) return 0;
  const start = epochMinutesToLocal(timeZone, startMinute);
  const end = epochMinutesToLocal(timeZone, endMinute);
  let periods = Math.max(1, Math.floor((end.day - start.day) / unitDays));
  while (periods > 1 && addLocalDays(timeZone, startMinute, (periods - 1) * unitDays) >= endMinute) periods--;
  while (addLocalDays(timeZone, startMinute, periods * unitDays) < endMinute) periods++;
  return periods;
}

/** Epoch minutes of an epoch-millisecond instant known to be on a whole minute. */
export function toEpochMinutes(epochMilliseconds: number): number {
  return Math.floor(epochMilliseconds / MS_PER_MINUTE);
}
