import { describe, expect, it } from 'vitest';
import { at, bookableService, requirement } from '../../test/availability.ts';
import { unavailableReason } from './rules.ts';
import { availabilitySearchRequestSchema } from './search-schemas.ts';
import { intervalShapeIssues, selectionIssues, validateSearch } from './validate.ts';

describe('availabilitySearchRequestSchema', () => {
  const body = {
    serviceId: 'bks_1',
    startsAt: '2026-03-01T00:00-05:00',
    endsAt: '2026-04-01T00:00-04:00',
    timezone: 'America/New_York',
    quantity: 1,
  };

  it('allows 31 calendar days in the request timezone, across a change', () => {
    expect(availabilitySearchRequestSchema.safeParse(body).success).toBe(true);
    expect(
      availabilitySearchRequestSchema.safeParse({ ...body, endsAt: '2026-04-01T00:01-04:00' }).success,
    ).toBe(false);
    // 31 × 24 hours would end an hour later than 31 calendar days here.
    expect(
      availabilitySearchRequestSchema.safeParse({ ...body, endsAt: '2026-04-01T01:00-04:00' }).success,
    ).toBe(false);
  });

  it('refuses both or neither service reference, an empty window, unknown keys and bad instants', () => {
    for (const bad of [
      { ...body, serviceSlug: 'tour' },
      { ...body, serviceId: undefined },
      { ...body, endsAt: body.startsAt },
      { ...body, extra: true },
      { ...body, startsAt: '2026-03-01T00:00:30-05:00' },
      { ...body, timezone: 'Mars/Olympus' },
      { ...body, quantity: 0 },
      { ...body, selection: { requirementId: 'brq_1', resourceId: 'brs_1', quantity: 1, extra: 1 } },
    ]) {
      expect(availabilitySearchRequestSchema.safeParse(bad).success, JSON.stringify(bad)).toBe(false);
    }
  });
});

describe('validateSearch', () => {
  const window = { startsAt: at('2026-06-01T00:00Z'), endsAt: at('2026-06-02T00:00Z'), quantity: 2 };
  const issuesOf = (run: () => unknown) => {
    try {
      run();
    } catch (error) {
      return (error as { details: { issues: { path: string }[] } }).details.issues.map((issue) => issue.path);
    }
    return [];
  };

  it('checks party size and the duration per period mode', () => {
    const fixedDuration = bookableService({
      partySize: { min: 2, max: 4 },
      durations: { choicesMinutes: [60, 90], startIntervalMinutes: 30 },
    });
    expect(validateSearch(fixedDuration, { ...window, durationMinutes: 90 })).toEqual({
      durationMinutes: 90,
    });
    expect(
      issuesOf(() => validateSearch(fixedDuration, { ...window, quantity: 5, durationMinutes: 45 })),
    ).toEqual(['quantity', 'durationMinutes']);
    expect(issuesOf(() => validateSearch(fixedDuration, window))).toEqual(['durationMinutes']);
    const single = bookableService({ partySize: { min: 1, max: 4 } });
    expect(validateSearch(single, window)).toEqual({ durationMinutes: 60 });

    const fixedSlot = bookableService({
      periodMode: 'FIXED_SLOT',
      fixedSlots: [{ weekdays: ['MON'], startTime: '09:00', durationMinutes: 60 }],
      partySize: { min: 1, max: 4 },
    });
    expect(issuesOf(() => validateSearch(fixedSlot, { ...window, durationMinutes: 60 }))).toEqual([
      'durationMinutes',
    ]);

    const range = bookableService({
      periodMode: 'EXACT_RANGE',
      durations: { minMinutes: 120, maxMinutes: 600, startIntervalMinutes: 60 },
      partySize: { min: 1, max: 4 },
    });
    expect(validateSearch(range, { ...window, durationMinutes: 180 })).toEqual({ durationMinutes: 180 });
    expect(issuesOf(() => validateSearch(range, { ...window, durationMinutes: 150 }))).toEqual([
      'durationMinutes',
    ]);
    expect(issuesOf(() => validateSearch(range, { ...window, durationMinutes: 660 }))).toEqual([
      'durationMinutes',
    ]);
    // Without a duration the window is the range: on the grid and within the limits.
    expect(validateSearch(range, { ...window, endsAt: at('2026-06-01T05:00Z') })).toEqual({
      durationMinutes: null,
    });
    expect(issuesOf(() => validateSearch(range, window))).toEqual(['endsAt']);
    expect(
      issuesOf(() =>
        validateSearch(range, {
          ...window,
          startsAt: at('2026-06-01T00:30Z'),
          endsAt: at('2026-06-01T05:00Z'),
        }),
      ),
    ).toEqual(['startsAt']);
  });
});

describe('selectionIssues', () => {
  const service = bookableService({
    requirements: [
      requirement('auto', ['van']),
      requirement('guide', ['ana', 'ben'], { selection: 'REQUIRED' }),
      requirement('kayaks', ['k1', 'k2'], {
        selection: 'OPTIONAL',
        units: { mode: 'PER_PARTICIPANT' },
        allowSplit: true,
      }),
    ],
  });
  const hold = { path: 'resourceSelections', complete: true };

  it('refuses selections the contract names', () => {
    const messages = (selections: { requirementId: string; resourceId: string; quantity: number }[]) =>
      selectionIssues(service, 3, selections, hold).map((issue) => issue.message);
    expect(messages([{ requirementId: 'guide', resourceId: 'ana', quantity: 1 }])).toEqual([]);
    expect(messages([])).toEqual(['requirement guide needs a resource selection']);
    expect(messages([{ requirementId: 'nope', resourceId: 'ana', quantity: 1 }])).toEqual([
      'is not a requirement of this service',
    ]);
    expect(messages([{ requirementId: 'auto', resourceId: 'van', quantity: 1 }])).toEqual([
      'is assigned by the server and takes no selection',
    ]);
    expect(messages([{ requirementId: 'guide', resourceId: 'k1', quantity: 1 }])).toEqual([
      "is not in the requirement's pool",
    ]);
    expect(
      messages([
        { requirementId: 'guide', resourceId: 'ana', quantity: 1 },
        { requirementId: 'kayaks', resourceId: 'k1', quantity: 1 },
      ]),
    ).toEqual(['quantities for requirement kayaks must sum to its 3 units']);
    expect(
      messages([
        { requirementId: 'guide', resourceId: 'ana', quantity: 1 },
        { requirementId: 'guide', resourceId: 'ben', quantity: 1 },
      ]),
    ).toEqual(['requirement guide takes all units from one resource']);
  });

  it('lets one search selection leave units to automatic assignment where a split is allowed', () => {
    const search = { path: 'selection', complete: false };
    expect(
      selectionIssues(service, 3, [{ requirementId: 'kayaks', resourceId: 'k1', quantity: 1 }], search),
    ).toEqual([]);
    expect(
      selectionIssues(service, 3, [{ requirementId: 'guide', resourceId: 'ana', quantity: 2 }], search),
    ).toHaveLength(1);
  });
});

describe('a single interval (holds)', () => {
  const nineToFive = { start: '09:00', end: '17:00' };
  const service = bookableService({
    timezone: 'Europe/Berlin',
    durations: { choicesMinutes: [60, 1440], startIntervalMinutes: 30 },
    availability: {
      weeklyHours: { MON: [nineToFive], TUE: [nineToFive] },
      exceptions: [
        { type: 'CLOSED_WINDOW', startsAt: '2026-06-02T12:00+02:00', endsAt: '2026-06-02T13:00+02:00' },
      ],
      leadTimeMinutes: 60,
      maxAdvanceDays: 30,
    },
  });
  const now = new Date('2026-06-01T09:00+02:00');

  it('names the rule an interval breaks, or null', () => {
    const reason = (start: string, end: string) => unavailableReason(service, now, at(start), at(end));
    expect(reason('2026-06-02T10:00+02:00', '2026-06-02T11:00+02:00')).toBeNull();
    expect(reason('2026-06-02T16:30+02:00', '2026-06-02T17:30+02:00')).toBe('OUTSIDE_HOURS');
    expect(reason('2026-06-03T10:00+02:00', '2026-06-03T11:00+02:00')).toBe('OUTSIDE_HOURS');
    expect(reason('2026-06-02T12:30+02:00', '2026-06-02T13:30+02:00')).toBe('CLOSED');
    expect(reason('2026-06-01T09:30+02:00', '2026-06-01T10:30+02:00')).toBe('LEAD_TIME');
    expect(reason('2026-05-25T10:00+02:00', '2026-05-25T11:00+02:00')).toBe('LEAD_TIME');
    expect(reason('2026-07-06T10:00+02:00', '2026-07-06T11:00+02:00')).toBe('MAX_ADVANCE');
  });

  it('checks its shape: grid, first occurrence, duration choice counted in local days', () => {
    const shape = (start: string, end: string) =>
      intervalShapeIssues(service, at(start), at(end)).map((i) => i.path);
    expect(shape('2026-06-02T10:00+02:00', '2026-06-02T11:00+02:00')).toEqual([]);
    expect(shape('2026-06-02T10:15+02:00', '2026-06-02T11:15+02:00')).toEqual(['startsAt']);
    expect(shape('2026-06-02T10:00+02:00', '2026-06-02T11:30+02:00')).toEqual(['endsAt']);
    // 1,440 minutes across the end of summer time are 25 hours.
    expect(shape('2026-10-24T10:00+02:00', '2026-10-25T10:00+01:00')).toEqual([]);
    expect(shape('2026-10-24T10:00+02:00', '2026-10-25T09:00+01:00')).toEqual(['endsAt']);
    // The second 02:30 of 25 October is not offered.
    expect(shape('2026-10-25T02:30+02:00', '2026-10-25T03:30+02:00').length).toBe(0);
    expect(shape('2026-10-25T02:30+01:00', '2026-10-25T03:30+01:00')).toEqual(['startsAt']);
  });

  it('closes a fixed slot by its start date or an overlapping window, whatever the hours', () => {
    const fixed = bookableService({
      periodMode: 'FIXED_SLOT',
      timezone: 'Europe/Lisbon',
      fixedSlots: [{ weekdays: ['WED', 'THU'], startTime: '23:00', durationMinutes: 120 }],
      availability: {
        weeklyHours: {},
        exceptions: [
          { type: 'CLOSED_DATE', date: '2026-07-02' },
          { type: 'CLOSED_WINDOW', startsAt: '2026-07-09T00:30+01:00', endsAt: '2026-07-09T01:00+01:00' },
        ],
      },
    });
    const reason = (start: string, end: string) =>
      unavailableReason(fixed, new Date('2026-06-01T00:00Z'), at(start), at(end));
    expect(reason('2026-07-01T23:00+01:00', '2026-07-02T01:00+01:00')).toBeNull();
    expect(reason('2026-07-02T23:00+01:00', '2026-07-03T01:00+01:00')).toBe('CLOSED');
    expect(reason('2026-07-08T23:00+01:00', '2026-07-09T01:00+01:00')).toBe('CLOSED');
  });

  it('matches a fixed slot of the weekday', () => {
    const fixed = bookableService({
      periodMode: 'FIXED_SLOT',
      timezone: 'Europe/Lisbon',
      fixedSlots: [{ weekdays: ['WED'], startTime: '09:00', durationMinutes: 180 }],
    });
    expect(intervalShapeIssues(fixed, at('2026-07-01T09:00+01:00'), at('2026-07-01T12:00+01:00'))).toEqual(
      [],
    );
    expect(
      intervalShapeIssues(fixed, at('2026-07-02T09:00+01:00'), at('2026-07-02T12:00+01:00')),
    ).toHaveLength(1);
    expect(
      intervalShapeIssues(fixed, at('2026-07-01T09:00+01:00'), at('2026-07-01T11:00+01:00')),
    ).toHaveLength(1);
  });
});
