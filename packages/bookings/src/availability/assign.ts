/**
 * What a booking takes from each requirement's pool, as a pure
 * function of the free units the caller measured over the claim interval.
 */

export type RequirementUnits = { mode: 'PER_BOOKING'; count: number } | { mode: 'PER_PARTICIPANT' };
export type RequirementSelectionMode = 'AUTO' | 'OPTIONAL' | 'REQUIRED';

export interface BookingRequirement {
  id: string;
  /** ACTIVE pool resources in preference order. */
  resourceIds: readonly string[];
  units: RequirementUnits;
  selection: RequirementSelectionMode;
  allowSplit: boolean;
}

export interface ResourceSelection {
  requirementId: string;
  resourceId: string;
  quantity: number;
}

export interface Allocation {
  requirementId: string;
  resourceId: string;
  quantity: number;
}

export type AssignmentResult =
  | { ok: true; allocations: Allocation[] }
  | { ok: false; requirementId: string; resourceId: string | null };

/** Units a requirement takes for a party of `quantity`. */
export function unitsNeeded(requirement: BookingRequirement, quantity: number): number {
  return requirement.units.mode === 'PER_BOOKING' ? requirement.units.count : quantity;
}

/**
 * Assigns every requirement in order. Selected resources take their selected
 * units; the units left are assigned automatically: without `allowSplit` the
 * pool resource with enough free units and the fewest of them (best fit, ties
 * by pool order), with `allowSplit` filled in pool order. Units a booking takes
 * from a resource are not free for its later requirements.
 *
 * Selections are assumed valid (in the pool, not for an `AUTO` requirement,
 * summing to at most the units): the validation functions check them first.
 */
export function assignResources(
  requirements: readonly BookingRequirement[],
  quantity: number,
  freeUnitsOf: (resourceId: string) => number,
  selections: readonly ResourceSelection[] = [],
): AssignmentResult {
  // Units this booking already took per resource; created on the first take (the search calls this per candidate).
  let taken = null as Map<string, number> | null;
  const allocations: Allocation[] = [];
  const take = (requirementId: string, resourceId: string, units: number) => {
    taken ??= new Map();
    taken.set(resourceId, (taken.get(resourceId) ?? 0) + units);
    allocations.push({ requirementId, resourceId, quantity: units });
  };

  for (const requirement of requirements) {
    let remaining = unitsNeeded(requirement, quantity);
    for (const selection of selections) {
      if (selection.requirementId !== requirement.id) continue;
      if (freeUnitsOf(selection.resourceId) - (taken?.get(selection.resourceId) ?? 0) < selection.quantity) {
        return { ok: false, requirementId: requirement.id, resourceId: selection.resourceId };
      }
      take(requirement.id, selection.resourceId, selection.quantity);
      remaining -= selection.quantity;
    }
    if (remaining <= 0) continue;

    if (requirement.allowSplit) {
      for (const resourceId of requirement.resourceIds) {
        if (remaining === 0) break;
        const units = Math.min(remaining, freeUnitsOf(resourceId) - (taken?.get(resourceId) ?? 0));
        if (units <= 0) continue;
        take(requirement.id, resourceId, units);
        remaining -= units;
      }
      if (remaining > 0) return { ok: false, requirementId: requirement.id, resourceId: null };
      continue;
    }

    let bestId: string | null = null;
    let bestFree = Number.POSITIVE_INFINITY;
    for (const resourceId of requirement.resourceIds) {
      const free = freeUnitsOf(resourceId) - (taken?.get(resourceId) ?? 0);
      if (free >= remaining && free < bestFree) {
        bestId = resourceId;
        bestFree = free;
      }
    }
    if (bestId === null) return { ok: false, requirementId: requirement.id, resourceId: null };
    take(requirement.id, bestId, remaining);
  }
  return { ok: true, allocations };
}
