import { describe, expect, it } from 'vitest';
import { at, claims, requirement } from '../../test/availability.ts';
import { assignResources } from './assign.ts';
import { freeUnits, peakUnits, resourceLoad } from './capacity.ts';

describe('assignResources', () => {
  const freeOf = (free: Record<string, number>) => (id: string) => free[id] ?? 0;

  it('takes the pool resource with enough free units and the fewest (best fit), ties by pool order', () => {
    const pool = [
      requirement('boats', ['big', 'small', 'medium', 'twin'], { units: { mode: 'PER_PARTICIPANT' } }),
    ];
    expect(assignResources(pool, 3, freeOf({ big: 10, small: 2, medium: 4, twin: 4 }))).toEqual({
      ok: true,
      allocations: [{ requirementId: 'boats', resourceId: 'medium', quantity: 3 }],
    });
    expect(assignResources(pool, 5, freeOf({ big: 10, small: 2, medium: 4 }))).toEqual({
      ok: true,
      allocations: [{ requirementId: 'boats', resourceId: 'big', quantity: 5 }],
    });
    expect(assignResources(pool, 11, freeOf({ big: 10, small: 2, medium: 4 }))).toEqual({
      ok: false,
      requirementId: 'boats',
      resourceId: null,
    });
  });

  it('with allowSplit fills in pool order', () => {
    const pool = [
      requirement('kayaks', ['a', 'b', 'c'], { units: { mode: 'PER_PARTICIPANT' }, allowSplit: true }),
    ];
    expect(assignResources(pool, 7, freeOf({ a: 3, b: 0, c: 10 }))).toEqual({
      ok: true,
      allocations: [
        { requirementId: 'kayaks', resourceId: 'a', quantity: 3 },
        { requirementId: 'kayaks', resourceId: 'c', quantity: 4 },
      ],
    });
    expect(assignResources(pool, 14, freeOf({ a: 3, b: 0, c: 10 })).ok).toBe(false);
  });

  it('counts units a booking takes from a resource against its later requirements', () => {
    const shared = [
      requirement('lead', ['ana', 'ben'], { units: { mode: 'PER_BOOKING', count: 1 } }),
      requirement('second', ['ana'], { units: { mode: 'PER_BOOKING', count: 1 } }),
    ];
    // Best fit puts the lead on ana (1 free), which leaves nothing for the second requirement.
    expect(assignResources(shared, 1, freeOf({ ana: 1, ben: 2 }))).toEqual({
      ok: false,
      requirementId: 'second',
      resourceId: null,
    });
    expect(assignResources(shared, 1, freeOf({ ana: 2, ben: 2 })).ok).toBe(true);
  });

  it('honours selections first and assigns the units left', () => {
    const pool = [
      requirement('kayaks', ['a', 'b'], {
        units: { mode: 'PER_PARTICIPANT' },
        allowSplit: true,
        selection: 'OPTIONAL',
      }),
    ];
    expect(
      assignResources(pool, 4, freeOf({ a: 5, b: 5 }), [
        { requirementId: 'kayaks', resourceId: 'b', quantity: 1 },
      ]),
    ).toEqual({
      ok: true,
      allocations: [
        { requirementId: 'kayaks', resourceId: 'b', quantity: 1 },
        { requirementId: 'kayaks', resourceId: 'a', quantity: 3 },
      ],
    });
    expect(
      assignResources(pool, 4, freeOf({ a: 5, b: 0 }), [
        { requirementId: 'kayaks', resourceId: 'b', quantity: 1 },
      ]),
    ).toEqual({ ok: false, requirementId: 'kayaks', resourceId: 'b' });
  });
});

describe('free units', () => {
  const load = resourceLoad(
    claims(5, [
      ['2026-06-01T09:00Z', '2026-06-01T10:00Z', 2],
      ['2026-06-01T09:30Z', '2026-06-01T11:00Z', 1],
      ['2026-06-01T10:00Z', '2026-06-01T12:00Z', 3],
    ]),
  );

  it('is capacity minus the peak over the interval, ends before starts at one instant', () => {
    expect(peakUnits(load, at('2026-06-01T08:00Z'), at('2026-06-01T09:00Z'))).toBe(0);
    expect(peakUnits(load, at('2026-06-01T09:00Z'), at('2026-06-01T09:30Z'))).toBe(2);
    expect(peakUnits(load, at('2026-06-01T09:00Z'), at('2026-06-01T10:00Z'))).toBe(3);
    // At 10:00 the first claim ends as the third starts: 1 + 3, not 2 + 1 + 3.
    expect(peakUnits(load, at('2026-06-01T09:00Z'), at('2026-06-01T12:00Z'))).toBe(4);
    expect(freeUnits(load, at('2026-06-01T10:30Z'), at('2026-06-01T10:31Z'))).toBe(1);
    expect(freeUnits(load, at('2026-06-01T11:00Z'), at('2026-06-01T13:00Z'))).toBe(2);
    expect(freeUnits(load, at('2026-06-01T12:00Z'), at('2026-06-01T13:00Z'))).toBe(5);
  });

  it('is never below zero, whatever the claims say', () => {
    const overfull = resourceLoad(claims(1, [['2026-06-01T09:00Z', '2026-06-01T10:00Z', 3]]));
    expect(freeUnits(overfull, at('2026-06-01T09:00Z'), at('2026-06-01T10:00Z'))).toBe(0);
  });
});
