import { describe, expect, it } from 'vitest';
import { at, bookableService, claims, EVERY_DAY_ALL_DAY, requirement } from '../../test/availability.ts';
import { type SlotSearch, searchSlots } from './search.ts';
import { validateSearch } from './validate.ts';

type SearchInput = Omit<SlotSearch, 'durationMinutes' | 'startsAt' | 'endsAt'> & {
  startsAt: string;
  endsAt: string;
  durationMinutes?: number;
};

/** Validates like the route, then searches. */
function search(input: SearchInput) {
  const startsAt = at(input.startsAt);
  const endsAt = at(input.endsAt);
  const { durationMinutes } = validateSearch(input.service, {
    startsAt,
    endsAt,
    quantity: input.quantity,
    durationMinutes: input.durationMinutes,
    selection: input.selection,
  });
  return searchSlots({ ...input, startsAt, endsAt, durationMinutes });
}

const startsOf = (result: ReturnType<typeof search>) => result.slots.map((slot) => slot.startsAt);

describe('worked examples: a fixed-slot kayak tour and a meeting room', () => {
  it('1. FIXED_SLOT kayak tour: lead time and held kayaks leave 2 Jul 09:00 and 17:00', () => {
    const service = bookableService({
      periodMode: 'FIXED_SLOT',
      timezone: 'Europe/Lisbon',
      durations: null,
      fixedSlots: [
        {
          weekdays: ['MON', 'TUE', 'WED', 'THU', 'FRI', 'SAT', 'SUN'],
          startTime: '09:00',
          durationMinutes: 180,
        },
        {
          weekdays: ['MON', 'TUE', 'WED', 'THU', 'FRI', 'SAT', 'SUN'],
          startTime: '17:00',
          durationMinutes: 180,
        },
      ],
      availability: { leadTimeMinutes: 120 },
      requirements: [
        requirement('guide', ['guide-1', 'guide-2']),
        requirement('kayaks', ['kayak-fleet'], { units: { mode: 'PER_PARTICIPANT' } }),
      ],
      pricing: { basis: 'FLAT', amountInCents: 4500, perParticipant: true, minimumInCents: null },
    });
    const result = search({
      service,
      now: new Date('2026-07-01T08:00+01:00'),
      startsAt: '2026-07-01T00:00+01:00',
      endsAt: '2026-07-03T00:00+01:00',
      timeZone: 'Europe/Lisbon',
      quantity: 4,
      claims: new Map([
        ['guide-1', claims(1)],
        ['guide-2', claims(1)],
        ['kayak-fleet', claims(12, [['2026-07-01T17:00+01:00', '2026-07-01T20:00+01:00', 10]])],
      ]),
    });
    expect(result).toEqual({
      truncated: false,
      slots: [
        {
          startsAt: '2026-07-02T09:00:00+01:00',
          endsAt: '2026-07-02T12:00:00+01:00',
          pricing: { authoritative: false, currency: 'EUR', subtotalInCents: 18000, depositInCents: null },
          resourceOptions: [],
        },
        {
          startsAt: '2026-07-02T17:00:00+01:00',
          endsAt: '2026-07-02T20:00:00+01:00',
          pricing: { authoritative: false, currency: 'EUR', subtotalInCents: 18000, depositInCents: null },
          resourceOptions: [],
        },
      ],
    });
  });

  it('2. FIXED_DURATION meeting room the Monday after the change: six slots 12:30 to 15:00', () => {
    const weekdays = { start: '09:00', end: '17:00' };
    const service = bookableService({
      timezone: 'America/New_York',
      durations: { choicesMinutes: [60, 120], startIntervalMinutes: 30 },
      availability: {
        weeklyHours: { MON: [weekdays], TUE: [weekdays], WED: [weekdays], THU: [weekdays], FRI: [weekdays] },
        bufferAfterMinutes: 15,
      },
      requirements: [requirement('room', ['room-a'])],
    });
    const result = search({
      service,
      now: new Date('2026-03-01T12:00Z'),
      startsAt: '2026-03-09T00:00-04:00',
      endsAt: '2026-03-10T00:00-04:00',
      timeZone: 'America/New_York',
      quantity: 1,
      durationMinutes: 120,
      claims: new Map([['room-a', claims(1, [['2026-03-09T10:00-04:00', '2026-03-09T12:15-04:00', 1]])]]),
    });
    expect(startsOf(result)).toEqual([
      '2026-03-09T12:30:00-04:00',
      '2026-03-09T13:00:00-04:00',
      '2026-03-09T13:30:00-04:00',
      '2026-03-09T14:00:00-04:00',
      '2026-03-09T14:30:00-04:00',
      '2026-03-09T15:00:00-04:00',
    ]);
    expect(result.slots.at(-1)?.endsAt).toBe('2026-03-09T17:00:00-04:00');
    // A duration choice is required when there are several.
    expect(() =>
      search({
        service,
        now: new Date('2026-03-01T12:00Z'),
        startsAt: '2026-03-09T00:00-04:00',
        endsAt: '2026-03-10T00:00-04:00',
        timeZone: 'America/New_York',
        quantity: 1,
        claims: new Map(),
      }),
    ).toThrow(expect.objectContaining({ code: 'VALIDATION_FAILED' }));
  });

  describe('3. EXACT_RANGE camper van across the end of summer time', () => {
    const service = bookableService({
      periodMode: 'EXACT_RANGE',
      timezone: 'Europe/Berlin',
      durations: { minMinutes: 1440, maxMinutes: 30_240, startIntervalMinutes: 60 },
      availability: {
        hoursPolicy: 'HANDOVER_WITHIN_HOURS',
        weeklyHours: Object.fromEntries(
          ['MON', 'TUE', 'WED', 'THU', 'FRI', 'SAT', 'SUN'].map((day) => [
            day,
            [{ start: '08:00', end: '18:00' }],
          ]),
        ),
        bufferAfterMinutes: 120,
      },
      requirements: [requirement('van', ['van-1'])],
      pricing: {
        basis: 'PER_PERIOD',
        amountInCents: 8900,
        period: 'DAY',
        perParticipant: false,
        minimumInCents: null,
      },
    });
    const window = {
      service,
      now: new Date('2026-10-01T12:00Z'),
      startsAt: '2026-10-23T10:00+02:00',
      endsAt: '2026-10-26T09:00+01:00',
      timeZone: 'Europe/Berlin',
      quantity: 1,
    };

    it('tests the window itself: 3 started days, 26700', () => {
      const result = search({ ...window, claims: new Map([['van-1', claims(1)]]) });
      expect(result.slots).toEqual([
        {
          startsAt: '2026-10-23T10:00:00+02:00',
          endsAt: '2026-10-26T09:00:00+01:00',
          pricing: { authoritative: false, currency: 'EUR', subtotalInCents: 26700, depositInCents: null },
          resourceOptions: [],
        },
      ]);
    });

    it('claims the van to 11:00 on 26 October', () => {
      const from = (start: string) =>
        search({
          ...window,
          claims: new Map([['van-1', claims(1, [[start, '2026-10-27T00:00+01:00', 1]])]]),
        });
      expect(from('2026-10-26T11:00+01:00').slots).toHaveLength(1);
      expect(from('2026-10-26T10:59+01:00').slots).toHaveLength(0);
    });
  });
});

describe('daylight-saving changes', () => {
  function allDay(timeZone: string, gridMinutes: number) {
    return bookableService({
      timezone: timeZone,
      durations: { choicesMinutes: [gridMinutes], startIntervalMinutes: gridMinutes },
      availability: { weeklyHours: EVERY_DAY_ALL_DAY },
    });
  }
  function day(timeZone: string, gridMinutes: number, from: string, to: string) {
    return search({
      service: allDay(timeZone, gridMinutes),
      now: new Date('2026-01-01T00:00Z'),
      startsAt: from,
      endsAt: to,
      timeZone,
      quantity: 1,
      claims: new Map([['room-a', claims(1)]]),
    });
  }

  it.each([
    ['America/New_York', '2026-03-08T00:00-05:00', '2026-03-09T00:00-04:00', 46, '02:'],
    ['Europe/Berlin', '2026-03-29T00:00+01:00', '2026-03-30T00:00+02:00', 46, '02:'],
  ])('%s spring: the skipped hour has no slot', (timeZone, from, to, count, skipped) => {
    const result = day(timeZone, 30, from, to);
    expect(result.slots).toHaveLength(count);
    expect(startsOf(result).some((start) => start.slice(11).startsWith(skipped))).toBe(false);
    expect(startsOf(result).at(-1)?.slice(11, 16)).toBe('23:30');
  });

  it.each([
    [
      'America/New_York',
      '2026-11-01T00:00-04:00',
      '2026-11-02T00:00-05:00',
      '01:30:00-04:00',
      '02:00:00-05:00',
    ],
    ['Europe/Berlin', '2026-10-25T00:00+02:00', '2026-10-26T00:00+01:00', '02:30:00+02:00', '03:00:00+01:00'],
  ])(
    '%s autumn: the repeated hour has its first occurrence only',
    (timeZone, from, to, lastRepeated, next) => {
      const result = day(timeZone, 30, from, to);
      expect(result.slots).toHaveLength(48);
      const times = startsOf(result).map((start) => start.slice(11));
      expect(times[times.indexOf(lastRepeated) + 1]).toBe(next);
      // Each wall time once: the 30-minute slot of the first occurrence ends 30 minutes later, in the same offset.
      expect(new Set(times.map((time) => time.slice(0, 5))).size).toBe(48);
    },
  );

  it('Australia/Lord_Howe shifts 30 minutes: 02:00 and 02:15 skipped, 01:30 and 01:45 once', () => {
    const spring = day('Australia/Lord_Howe', 15, '2026-10-04T00:00+10:30', '2026-10-05T00:00+11:00');
    expect(spring.slots).toHaveLength(94);
    expect(startsOf(spring).filter((start) => start.includes('T02:0') || start.includes('T02:15'))).toEqual(
      [],
    );
    expect(startsOf(spring)).toContain('2026-10-04T02:30:00+11:00');
    const autumn = day('Australia/Lord_Howe', 15, '2026-04-05T00:00+11:00', '2026-04-06T00:00+10:30');
    expect(autumn.slots).toHaveLength(96);
    expect(startsOf(autumn)).toContain('2026-04-05T01:45:00+11:00');
    expect(startsOf(autumn)).not.toContain('2026-04-05T01:45:00+10:30');
  });

  it('formats in the request timezone, not the service one', () => {
    const result = search({
      service: allDay('Europe/Berlin', 60),
      now: new Date('2026-01-01T00:00Z'),
      startsAt: '2026-03-08T07:00Z',
      endsAt: '2026-03-08T08:00Z',
      timeZone: 'America/New_York',
      quantity: 1,
      claims: new Map([['room-a', claims(1)]]),
    });
    expect(result.slots.map((slot) => [slot.startsAt, slot.endsAt])).toEqual([
      ['2026-03-08T03:00:00-04:00', '2026-03-08T04:00:00-04:00'],
    ]);
  });
});

describe('hours and exceptions', () => {
  const now = new Date('2026-01-01T00:00Z');
  const roomFree = new Map([['room-a', claims(1)]]);
  function exact(availability: Record<string, unknown>, from: string, to: string) {
    return search({
      service: bookableService({
        periodMode: 'EXACT_RANGE',
        durations: { minMinutes: 60, maxMinutes: 7 * 1440, startIntervalMinutes: 60 },
        availability,
      }),
      now,
      startsAt: from,
      endsAt: to,
      timeZone: 'UTC',
      quantity: 1,
      claims: roomFree,
    }).slots.length;
  }

  it('a range ending 24:00 joins one starting 00:00 the next day', () => {
    // 2026-06-01 is a Monday.
    const joined = { MON: [{ start: '20:00', end: '24:00' }], TUE: [{ start: '00:00', end: '02:00' }] };
    expect(exact({ weeklyHours: joined }, '2026-06-01T22:00Z', '2026-06-02T02:00Z')).toBe(1);
    const apart = { MON: [{ start: '20:00', end: '23:00' }], TUE: [{ start: '00:00', end: '02:00' }] };
    expect(exact({ weeklyHours: apart }, '2026-06-01T22:00Z', '2026-06-02T02:00Z')).toBe(0);
    const tuesdayClosed = { weeklyHours: joined, exceptions: [{ type: 'CLOSED_DATE', date: '2026-06-02' }] };
    expect(exact(tuesdayClosed, '2026-06-01T22:00Z', '2026-06-02T02:00Z')).toBe(0);
  });

  it('HANDOVER_WITHIN_HOURS needs only the start and end in open time; WITHIN_HOURS the whole', () => {
    const hours = Object.fromEntries(['MON', 'TUE'].map((day) => [day, [{ start: '08:00', end: '18:00' }]]));
    expect(exact({ weeklyHours: hours }, '2026-06-01T17:00Z', '2026-06-02T09:00Z')).toBe(0);
    expect(
      exact(
        { weeklyHours: hours, hoursPolicy: 'HANDOVER_WITHIN_HOURS' },
        '2026-06-01T17:00Z',
        '2026-06-02T09:00Z',
      ),
    ).toBe(1);
    // An end at closing time counts; a start at closing time does not.
    expect(
      exact(
        { weeklyHours: hours, hoursPolicy: 'HANDOVER_WITHIN_HOURS' },
        '2026-06-01T17:00Z',
        '2026-06-02T18:00Z',
      ),
    ).toBe(1);
    expect(
      exact(
        { weeklyHours: hours, hoursPolicy: 'HANDOVER_WITHIN_HOURS' },
        '2026-06-01T18:00Z',
        '2026-06-02T09:00Z',
      ),
    ).toBe(0);
  });

  it('HOURS_DATE replaces a date, CLOSED_DATE removes it, CLOSED_WINDOW cuts open time', () => {
    const service = (exceptions: unknown[]) =>
      bookableService({ availability: { weeklyHours: EVERY_DAY_ALL_DAY, exceptions } });
    const count = (exceptions: unknown[]) =>
      search({
        service: service(exceptions),
        now,
        startsAt: '2026-06-01T00:00Z',
        endsAt: '2026-06-03T00:00Z',
        timeZone: 'UTC',
        quantity: 1,
        claims: roomFree,
      }).slots;
    expect(count([])).toHaveLength(96);
    expect(count([{ type: 'CLOSED_DATE', date: '2026-06-01' }])).toHaveLength(48);
    const replaced = count([
      { type: 'HOURS_DATE', date: '2026-06-01', ranges: [{ start: '10:00', end: '12:00' }] },
    ]);
    expect(
      replaced.filter((slot) => slot.startsAt.startsWith('2026-06-01')).map((slot) => slot.startsAt),
    ).toEqual(['2026-06-01T10:00:00+00:00', '2026-06-01T10:30:00+00:00', '2026-06-01T11:00:00+00:00']);
    const window = count([
      { type: 'CLOSED_WINDOW', startsAt: '2026-06-01T10:00Z', endsAt: '2026-06-01T12:00Z' },
    ]);
    expect(window.map((slot) => slot.startsAt)).not.toContain('2026-06-01T09:30:00+00:00');
    expect(window.map((slot) => slot.startsAt)).toContain('2026-06-01T09:00:00+00:00');
    expect(window.map((slot) => slot.startsAt)).toContain('2026-06-01T12:00:00+00:00');
    expect(window).toHaveLength(96 - 5);
  });

  it('fixed slots ignore hours but not CLOSED_DATE (by start date) and CLOSED_WINDOW (by overlap)', () => {
    const slots = (exceptions: unknown[]) =>
      startsOf(
        search({
          service: bookableService({
            periodMode: 'FIXED_SLOT',
            durations: null,
            fixedSlots: [
              { weekdays: ['MON', 'TUE'], startTime: '23:00', durationMinutes: 120 },
              { weekdays: ['TUE'], startTime: '10:00', durationMinutes: 60 },
            ],
            availability: { weeklyHours: {}, exceptions },
          }),
          now,
          startsAt: '2026-06-01T00:00Z',
          endsAt: '2026-06-03T00:00Z',
          timeZone: 'UTC',
          quantity: 1,
          claims: roomFree,
        }),
      );
    expect(slots([])).toEqual([
      '2026-06-01T23:00:00+00:00',
      '2026-06-02T10:00:00+00:00',
      '2026-06-02T23:00:00+00:00',
    ]);
    // Closing Tuesday removes the slots starting Tuesday, not Monday's running into it.
    expect(slots([{ type: 'CLOSED_DATE', date: '2026-06-02' }])).toEqual(['2026-06-01T23:00:00+00:00']);
    expect(
      slots([{ type: 'CLOSED_WINDOW', startsAt: '2026-06-02T00:30Z', endsAt: '2026-06-02T10:01Z' }]),
    ).toEqual(['2026-06-02T23:00:00+00:00']);
    expect(
      slots([{ type: 'CLOSED_WINDOW', startsAt: '2026-06-02T01:00Z', endsAt: '2026-06-02T10:00Z' }]),
    ).toHaveLength(3);
  });

  it('drops starts before now + lead time, not after now, and at or after now + maximum advance', () => {
    const service = bookableService({
      availability: { weeklyHours: EVERY_DAY_ALL_DAY, leadTimeMinutes: 90, maxAdvanceDays: 1 },
    });
    const result = search({
      service,
      now: new Date('2026-06-01T10:15:30Z'),
      startsAt: '2026-06-01T00:00Z',
      endsAt: '2026-06-03T00:00Z',
      timeZone: 'UTC',
      quantity: 1,
      claims: roomFree,
    });
    expect(result.slots[0]?.startsAt).toBe('2026-06-01T12:00:00+00:00');
    expect(result.slots.at(-1)?.startsAt).toBe('2026-06-02T10:00:00+00:00');
    const noLead = search({
      service: bookableService({ availability: { weeklyHours: EVERY_DAY_ALL_DAY } }),
      now: new Date('2026-06-01T10:00:00Z'),
      startsAt: '2026-06-01T09:00Z',
      endsAt: '2026-06-01T11:00Z',
      timeZone: 'UTC',
      quantity: 1,
      claims: roomFree,
    });
    expect(startsOf(noLead)).toEqual(['2026-06-01T10:30:00+00:00']);
  });
});

describe('capacity', () => {
  const now = new Date('2026-01-01T00:00Z');
  const service = (options: Parameters<typeof bookableService>[0] = {}) =>
    bookableService({ availability: { weeklyHours: EVERY_DAY_ALL_DAY }, ...options });

  it('buffers widen the claim and may fall outside hours', () => {
    const nineToFive = Object.fromEntries(
      ['MON', 'TUE', 'WED', 'THU', 'FRI', 'SAT', 'SUN'].map((day) => [
        day,
        [{ start: '09:00', end: '17:00' }],
      ]),
    );
    const withBuffer = bookableService({
      availability: { weeklyHours: nineToFive, bufferBeforeMinutes: 60 },
    });
    const first = (rows: [string, string, number][]) =>
      search({
        service: withBuffer,
        now,
        startsAt: '2026-06-01T00:00Z',
        endsAt: '2026-06-02T00:00Z',
        timeZone: 'UTC',
        quantity: 1,
        claims: new Map([['room-a', claims(1, rows)]]),
      }).slots[0]?.startsAt;
    expect(first([])).toBe('2026-06-01T09:00:00+00:00');
    expect(first([['2026-06-01T07:30Z', '2026-06-01T08:01Z', 1]])).toBe('2026-06-01T09:30:00+00:00');
    expect(first([['2026-06-01T07:30Z', '2026-06-01T08:00Z', 1]])).toBe('2026-06-01T09:00:00+00:00');
  });

  it('free units are capacity minus the peak of overlapping claims, not their sum', () => {
    const twoHours = service({ durations: { choicesMinutes: [120], startIntervalMinutes: 60 } });
    const count = (quantity: number) =>
      search({
        service: bookableService({
          ...twoHours,
          availability: twoHours.availability,
          requirements: [requirement('seats', ['hall'], { units: { mode: 'PER_PARTICIPANT' } })],
        }),
        now,
        startsAt: '2026-06-01T09:00Z',
        endsAt: '2026-06-01T09:01Z',
        timeZone: 'UTC',
        quantity,
        claims: new Map([
          [
            'hall',
            claims(3, [
              ['2026-06-01T09:00Z', '2026-06-01T10:00Z', 1],
              ['2026-06-01T10:00Z', '2026-06-01T11:00Z', 1],
            ]),
          ],
        ]),
      }).slots.length;
    expect(count(2)).toBe(1);
    expect(count(3)).toBe(0);
  });

  it('lists resource options with their free units and keeps only slots meeting the selection', () => {
    const selectable = service({
      requirements: [requirement('guide', ['ana', 'ben', 'cai'], { selection: 'OPTIONAL' })],
    });
    const run = (selection?: { requirementId: string; resourceId: string; quantity: number }) =>
      search({
        service: selectable,
        now,
        startsAt: '2026-06-01T09:00Z',
        endsAt: '2026-06-01T10:00Z',
        timeZone: 'UTC',
        quantity: 1,
        selection,
        claims: new Map([
          ['ana', claims(1, [['2026-06-01T09:00Z', '2026-06-01T09:30Z', 1]])],
          ['ben', claims(2)],
          ['cai', claims(1)],
        ]),
      });
    expect(run().slots.map((slot) => slot.resourceOptions)).toEqual([
      [
        { requirementId: 'guide', resourceId: 'ben', available: 2 },
        { requirementId: 'guide', resourceId: 'cai', available: 1 },
      ],
      [
        { requirementId: 'guide', resourceId: 'ana', available: 1 },
        { requirementId: 'guide', resourceId: 'ben', available: 2 },
        { requirementId: 'guide', resourceId: 'cai', available: 1 },
      ],
    ]);
    expect(startsOf(run({ requirementId: 'guide', resourceId: 'ana', quantity: 1 }))).toEqual([
      '2026-06-01T09:30:00+00:00',
    ]);
    expect(() => run({ requirementId: 'guide', resourceId: 'zed', quantity: 1 })).toThrow(
      expect.objectContaining({ code: 'VALIDATION_FAILED' }),
    );
  });

  it('truncates at 1,000 slots and at 20,000 resource options, the earliest first', () => {
    const everyMinute = service({ durations: { choicesMinutes: [1], startIntervalMinutes: 1 } });
    const bySlots = search({
      service: everyMinute,
      now,
      startsAt: '2026-06-01T00:00Z',
      endsAt: '2026-06-02T00:00Z',
      timeZone: 'UTC',
      quantity: 1,
      claims: new Map([['room-a', claims(1)]]),
    });
    expect(bySlots.truncated).toBe(true);
    expect(bySlots.slots).toHaveLength(1000);
    expect(bySlots.slots[999]?.startsAt).toBe('2026-06-01T16:39:00+00:00');

    const pool = Array.from({ length: 25 }, (_, index) => `r${index}`);
    const byOptions = search({
      service: bookableService({
        ...everyMinute,
        availability: everyMinute.availability,
        requirements: [requirement('any', pool, { selection: 'OPTIONAL' })],
      }),
      now,
      startsAt: '2026-06-01T00:00Z',
      endsAt: '2026-06-02T00:00Z',
      timeZone: 'UTC',
      quantity: 1,
      claims: new Map(pool.map((id) => [id, claims(1)])),
    });
    expect(byOptions.truncated).toBe(true);
    expect(byOptions.slots).toHaveLength(800);

    const exactlyAtLimit = search({
      service: everyMinute,
      now,
      startsAt: '2026-06-01T00:00Z',
      endsAt: '2026-06-01T16:40Z',
      timeZone: 'UTC',
      quantity: 1,
      claims: new Map([['room-a', claims(1)]]),
    });
    expect(exactlyAtLimit).toMatchObject({ truncated: false });
    expect(exactlyAtLimit.slots).toHaveLength(1000);
  });
});
