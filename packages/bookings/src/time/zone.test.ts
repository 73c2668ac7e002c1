import { describe, expect, it } from 'vitest';
import {
  addLocalDays,
  durationBetween,
  endAfter,
  epochMinutesToLocal,
  formatInstant,
  localToEpochMinutes,
  offsetMinutesAt,
  parseLocalDate,
  startedLocalPeriods,
  weekdayIndex,
} from './zone.ts';

const minutes = (iso: string) => Date.parse(iso) / 60_000;
const day = parseLocalDate;

describe('local dates', () => {
  it('numbers days and weekdays from Monday', () => {
    expect(day('1970-01-01')).toBe(0);
    expect(weekdayIndex(day('2026-03-09'))).toBe(0); // a Monday
    expect(weekdayIndex(day('2026-03-08'))).toBe(6); // a Sunday
    expect(weekdayIndex(day('1969-12-29'))).toBe(0);
  });
});

describe('localToEpochMinutes', () => {
  it('converts ordinary days with arithmetic and the zone offset', () => {
    expect(localToEpochMinutes('Europe/Lisbon', day('2026-07-01'), 9 * 60, 'skip')).toBe(
      minutes('2026-07-01T08:00Z'),
    );
    expect(localToEpochMinutes('America/New_York', day('2026-03-09'), 12 * 60 + 30, 'skip')).toBe(
      minutes('2026-03-09T16:30Z'),
    );
    expect(localToEpochMinutes('UTC', day('2026-03-09'), 24 * 60, 'skip')).toBe(minutes('2026-03-10T00:00Z'));
  });

  it('America/New_York: 02:30 on 8 March is skipped, 01:30 on 1 November is its first occurrence', () => {
    const springForward = day('2026-03-08');
    expect(localToEpochMinutes('America/New_York', springForward, 150, 'skip')).toBeNull();
    expect(localToEpochMinutes('America/New_York', springForward, 150, 'forward')).toBe(
      minutes('2026-03-08T07:30Z'),
    );
    expect(localToEpochMinutes('America/New_York', springForward, 120 - 1, 'skip')).toBe(
      minutes('2026-03-08T06:59Z'),
    );
    expect(localToEpochMinutes('America/New_York', springForward, 180, 'skip')).toBe(
      minutes('2026-03-08T07:00Z'),
    );
    const fallBack = day('2026-11-01');
    expect(localToEpochMinutes('America/New_York', fallBack, 90, 'skip')).toBe(minutes('2026-11-01T05:30Z'));
    expect(localToEpochMinutes('America/New_York', fallBack, 150, 'skip')).toBe(minutes('2026-11-01T07:30Z'));
  });

  it('Europe/Berlin: 02:30 on 29 March is skipped, 02:30 on 25 October is its first occurrence', () => {
    expect(localToEpochMinutes('Europe/Berlin', day('2026-03-29'), 150, 'skip')).toBeNull();
    expect(localToEpochMinutes('Europe/Berlin', day('2026-03-29'), 180, 'skip')).toBe(
      minutes('2026-03-29T01:00Z'),
    );
    expect(localToEpochMinutes('Europe/Berlin', day('2026-10-25'), 150, 'skip')).toBe(
      minutes('2026-10-25T00:30Z'),
    );
    expect(localToEpochMinutes('Europe/Berlin', day('2026-10-25'), 180, 'skip')).toBe(
      minutes('2026-10-25T02:00Z'),
    );
  });

  it('Australia/Lord_Howe shifts by 30 minutes: 02:00 to 02:29 on 4 October are skipped, 01:30 to 01:59 on 5 April repeat', () => {
    const spring = day('2026-10-04');
    expect(localToEpochMinutes('Australia/Lord_Howe', spring, 2 * 60 + 15, 'skip')).toBeNull();
    expect(localToEpochMinutes('Australia/Lord_Howe', spring, 2 * 60 + 30, 'skip')).toBe(
      minutes('2026-10-03T15:30Z'),
    );
    const autumn = day('2026-04-05');
    // 01:45 happens at +11:00 and again at +10:30; the first is taken.
    expect(localToEpochMinutes('Australia/Lord_Howe', autumn, 105, 'skip')).toBe(
      minutes('2026-04-04T14:45Z'),
    );
    expect(localToEpochMinutes('Australia/Lord_Howe', autumn, 120, 'skip')).toBe(
      minutes('2026-04-04T15:30Z'),
    );
  });
});

describe('epochMinutesToLocal and formatInstant', () => {
  it('formats with the offset in force at the instant', () => {
    expect(formatInstant(minutes('2026-03-09T16:30Z'), 'America/New_York')).toBe('2026-03-09T12:30:00-04:00');
    expect(formatInstant(minutes('2026-03-06T16:30Z'), 'America/New_York')).toBe('2026-03-06T11:30:00-05:00');
    expect(formatInstant(minutes('2026-10-26T10:00Z'), 'Europe/Berlin')).toBe('2026-10-26T11:00:00+01:00');
    expect(formatInstant(minutes('2026-10-03T15:30Z'), 'Australia/Lord_Howe')).toBe(
      '2026-10-04T02:30:00+11:00',
    );
    expect(formatInstant(minutes('2026-10-03T15:29Z'), 'Australia/Lord_Howe')).toBe(
      '2026-10-04T01:59:00+10:30',
    );
    expect(formatInstant(minutes('2026-07-01T00:00Z'), 'UTC')).toBe('2026-07-01T00:00:00+00:00');
    expect(formatInstant(minutes('2026-07-01T00:00Z'), 'Asia/Kathmandu')).toBe('2026-07-01T05:45:00+05:45');
  });

  it('tells both occurrences of a repeated hour apart', () => {
    expect(formatInstant(minutes('2026-11-01T05:30Z'), 'America/New_York')).toBe('2026-11-01T01:30:00-04:00');
    expect(formatInstant(minutes('2026-11-01T06:30Z'), 'America/New_York')).toBe('2026-11-01T01:30:00-05:00');
    expect(epochMinutesToLocal('America/New_York', minutes('2026-11-01T06:30Z'))).toEqual({
      day: day('2026-11-01'),
      minuteOfDay: 90,
    });
    expect(offsetMinutesAt('Europe/Berlin', minutes('2026-10-25T00:30Z'))).toBe(120);
    expect(offsetMinutesAt('Europe/Berlin', minutes('2026-10-25T01:30Z'))).toBe(60);
  });
});

describe('durations of whole days count local days', () => {
  it('1,440 minutes across a change are 23 or 25 hours; others elapse', () => {
    const saturday = minutes('2026-03-07T15:00Z'); // 10:00 EST
    expect(endAfter('America/New_York', saturday, 2 * 1440) - saturday).toBe(2 * 1440 - 60);
    expect(endAfter('America/New_York', saturday, 2 * 1440 + 1) - saturday).toBe(2 * 1440 + 1);
    const berlin = minutes('2026-10-24T08:00Z'); // 10:00 CEST
    expect(endAfter('Europe/Berlin', berlin, 1440) - berlin).toBe(1500);
    expect(
      addLocalDays('Australia/Lord_Howe', minutes('2026-10-02T23:00Z'), 1) - minutes('2026-10-02T23:00Z'),
    ).toBe(1410);
  });

  it('measures intervals back in the same units', () => {
    const start = minutes('2026-10-24T08:00Z');
    expect(durationBetween('Europe/Berlin', start, start + 1500)).toBe(1440);
    // 24 elapsed hours end at 09:00 the next day: not a local day, so elapsed minutes.
    expect(durationBetween('Europe/Berlin', start, start + 1440)).toBe(1440);
    expect(durationBetween('Europe/Berlin', start, start + 1499)).toBe(1499);
    expect(durationBetween('Europe/Berlin', start, start + 120)).toBe(120);
  });

  it('counts started local days and weeks', () => {
    // Friday 10:00 to Monday 09:00 in Berlin across the end of summer time.
    const friday = minutes('2026-10-23T08:00Z');
    const monday = minutes('2026-10-26T08:00Z');
    expect(startedLocalPeriods('Europe/Berlin', friday, monday, 1)).toBe(3);
    expect(startedLocalPeriods('Europe/Berlin', friday, minutes('2026-10-26T09:00Z'), 1)).toBe(3);
    expect(startedLocalPeriods('Europe/Berlin', friday, minutes('2026-10-26T09:01Z'), 1)).toBe(4);
    expect(startedLocalPeriods('Europe/Berlin', friday, friday + 1, 1)).toBe(1);
    expect(startedLocalPeriods('Europe/Berlin', friday, monday, 7)).toBe(1);
    expect(
      startedLocalPeriods('Europe/Berlin', friday, addLocalDays('Europe/Berlin', friday, 7) + 1, 7),
    ).toBe(2);
  });
});
