import { describe, expect, it } from 'vitest';
import { claimsCover, unitsNeeded } from './hold-claims.ts';

describe('unitsNeeded', () => {
  it('sums the allocations of each resource', () => {
    const needed = unitsNeeded([
      { resourceId: 'res_a', quantity: 1 },
      { resourceId: 'res_b', quantity: 2 },
      { resourceId: 'res_a', quantity: 3 },
    ]);
    expect(Object.fromEntries(needed)).toEqual({ res_a: 4, res_b: 2 });
  });
});

describe('claimsCover', () => {
  const needed = new Map([
    ['res_a', 2],
    ['res_b', 1],
  ]);

  it('holds when the live claims of each resource add up to what is needed', () => {
    const live = [
      { resource_id: 'res_a', quantity: 1 },
      { resource_id: 'res_a', quantity: 1 },
      { resource_id: 'res_b', quantity: 1 },
    ];
    expect(claimsCover(live, needed)).toBe(true);
  });

  it('fails when a resource is short or its claims are gone', () => {
    expect(
      claimsCover(
        [
          { resource_id: 'res_a', quantity: 1 },
          { resource_id: 'res_b', quantity: 1 },
        ],
        needed,
      ),
    ).toBe(false);
    expect(claimsCover([{ resource_id: 'res_a', quantity: 2 }], needed)).toBe(false);
  });
});
