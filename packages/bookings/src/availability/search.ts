import { type PricePreview, priceBooking } from '../pricing/price.ts';
import { formatInstant } from '../time/zone.ts';
import { assignResources, type ResourceSelection, unitsNeeded } from './assign.ts';
import { type Candidates, fixedSlotCandidates, gridCandidates } from './candidates.ts';
import { type ClaimArrays, LoadCursor, resourceLoad } from './capacity.ts';
import { type BookableService, TimeRules } from './rules.ts';
import { MAX_RESOURCE_OPTIONS, MAX_SLOTS } from './search-schemas.ts';
import { gridOf } from './validate.ts';

/**
 * The availability search as a pure function of the service, the
 * clock, the window and each pool resource's live claims. The caller has
 * validated the request (`availabilitySearchRequestSchema`, `validateSearch`)
 * and read the claims overlapping the window widened by the longest duration
 * and the buffers.
 */

export interface SlotSearch {
  service: BookableService;
  now: Date;
  /** The window, epoch minutes: candidates start in `[startsAt, endsAt)`. */
  startsAt: number;
  endsAt: number;
  /** The request timezone: the response offsets. */
  timeZone: string;
  quantity: number;
  /** From `validateSearch`: null for fixed slots and an EXACT_RANGE window tested itself. */
  durationMinutes: number | null;
  selection?: ResourceSelection | undefined;
  /** At most this many slots (default and most: 1,000). */
  limit?: number | undefined;
  /** Per pool resource id (ACTIVE resources only): capacity and live claims. A missing id has nothing free. */
  claims: ReadonlyMap<string, ClaimArrays>;
}

export interface SearchedSlot {
  startsAt: string;
  endsAt: string;
  pricing: PricePreview;
  resourceOptions: { requirementId: string; resourceId: string; available: number }[];
}

export interface SlotSearchResult {
  slots: SearchedSlot[];
  truncated: boolean;
  /** When truncated: the start (epoch minutes) of the first slot left out, where the next page begins. */
  nextStart?: number;
}

function candidatesOf(search: SlotSearch): Candidates {
  const { service } = search;
  if (service.periodMode === 'FIXED_SLOT')
    return fixedSlotCandidates(service, search.startsAt, search.endsAt);
  if (search.durationMinutes === null) return { starts: [search.startsAt], ends: [search.endsAt] };
  return gridCandidates(
    service.timezone,
    search.startsAt,
    search.endsAt,
    gridOf(service),
    search.durationMinutes,
    service.periodMode === 'EXACT_RANGE',
  );
}

/**
 * Candidates (fixed slots, or grid starts with each duration); dropped when
 * they fail the hours policy (weekly hours with exceptions), start before now +
 * lead time or at or after now + the maximum advance; then widened by the
 * buffers and kept when every requirement can be met for `quantity` (and the
 * selection, if any) from the free units, capacity minus peak of live claims.
 * Sorted by start; at most 1,000 slots (or `limit`) and 20,000 resource
 * options, the earliest, with `truncated` and the start of the first slot left
 * out.
 */
export function searchSlots(search: SlotSearch): SlotSearchResult {
  const { service, quantity } = search;
  const candidates = candidatesOf(search);
  const count = candidates.starts.length;
  if (count === 0) return { slots: [], truncated: false };
  const lastEnd = candidates.ends.reduce((latest, end) => Math.max(latest, end), Number.NEGATIVE_INFINITY);
  const rules = new TimeRules(service, search.now.getTime(), candidates.starts[0] as number, lastEnd);

  const resourceIds = [...new Set(service.requirements.flatMap((requirement) => requirement.resourceIds))];
  const resourceIndex = new Map(resourceIds.map((resourceId, index) => [resourceId, index]));
  const cursors = resourceIds.map((resourceId) => {
    const claims = search.claims.get(resourceId);
    return claims ? new LoadCursor(resourceLoad(claims)) : null;
  });
  const free = new Float64Array(resourceIds.length);
  const freeUnitsOf = (resourceId: string) => free[resourceIndex.get(resourceId) ?? -1] ?? 0;
  const selectable = service.requirements.filter((requirement) => requirement.selection !== 'AUTO');
  const selections = search.selection ? [search.selection] : [];
  const { bufferBeforeMinutes, bufferAfterMinutes } = service.availability;

  const maxSlots = Math.min(search.limit ?? MAX_SLOTS, MAX_SLOTS);
  const slots: SearchedSlot[] = [];
  let optionCount = 0;
  for (let index = 0; index < count; index++) {
    const start = candidates.starts[index] as number;
    const end = candidates.ends[index] as number;
    if (!rules.isOpen(start, end) || !rules.isBookableFromNow(start)) continue;

    const claimStart = start - bufferBeforeMinutes;
    const claimEnd = end + bufferAfterMinutes;
    for (let resource = 0; resource < cursors.length; resource++) {
      free[resource] = cursors[resource]?.freeUnits(claimStart, claimEnd) ?? 0;
    }
    const assignment = assignResources(service.requirements, quantity, freeUnitsOf, selections);
    if (!assignment.ok) continue;

    const pricing = service.pricing
      ? priceBooking({
          pricing: service.pricing,
          checkout: service.checkout,
          currency: service.currency,
          timeZone: service.timezone,
          startsAt: start,
          endsAt: end,
          quantity,
        })
      : null;
    if (pricing === null) continue;

    const resourceOptions: SearchedSlot['resourceOptions'] = [];
    for (const requirement of selectable) {
      const enough = requirement.allowSplit ? 1 : unitsNeeded(requirement, quantity);
      for (const resourceId of requirement.resourceIds) {
        const available = freeUnitsOf(resourceId);
        if (available >= enough)
          resourceOptions.push({ requirementId: requirement.id, resourceId, available });
      }
    }
    if (slots.length === maxSlots || optionCount + resourceOptions.length > MAX_RESOURCE_OPTIONS) {
      return { slots, truncated: true, nextStart: start };
    }
    optionCount += resourceOptions.length;
    slots.push({
      startsAt: formatInstant(start, search.timeZone),
      endsAt: formatInstant(end, search.timeZone),
      pricing,
      resourceOptions,
    });
  }
  return { slots, truncated: false };
}
