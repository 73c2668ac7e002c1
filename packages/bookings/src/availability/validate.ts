import { AppError, type ValidationIssue } from '@commerce/core';
import { durationBetween, endAfter, epochMinutesToLocal, localToEpochMinutes } from '../time/zone.ts';
import { type ResourceSelection, unitsNeeded } from './assign.ts';
import { fixedSlotEndsAt, isOnGrid } from './candidates.ts';
import type { BookableService } from './rules.ts';
import { DEFAULT_START_INTERVAL_MINUTES } from './schemas.ts';

/**
 * The 400s that depend on the service, for searches and holds: party size,
 * duration, grid and resource selections. Each returns its issues; the
 * `validate…` forms throw `400 VALIDATION_FAILED` with all of them.
 */

export function gridOf(service: Pick<BookableService, 'durations'>): number {
  return service.durations?.startIntervalMinutes ?? DEFAULT_START_INTERVAL_MINUTES;
}

export function partySizeIssues(
  service: Pick<BookableService, 'partySize'>,
  quantity: number,
): ValidationIssue[] {
  const { min, max } = service.partySize;
  return quantity < min || quantity > max
    ? [{ path: 'quantity', message: `must be within the party size, ${min} to ${max}` }]
    : [];
}

/**
 * Selections against the requirements. `complete` (holds): every
 * `REQUIRED` requirement has selections and a selected requirement's
 * quantities sum to its units. A search sends at most one selection, which
 * may leave units to automatic assignment when the requirement allows a split.
 */
export function selectionIssues(
  service: Pick<BookableService, 'requirements'>,
  quantity: number,
  selections: readonly ResourceSelection[],
  options: { path: string; complete: boolean },
): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  const selected = new Map<string, ResourceSelection[]>();
  selections.forEach((selection, index) => {
    const path = options.complete ? `${options.path}.${index}` : options.path;
    const requirement = service.requirements.find((candidate) => candidate.id === selection.requirementId);
    if (!requirement) {
      issues.push({ path: `${path}.requirementId`, message: 'is not a requirement of this service' });
      return;
    }
    if (requirement.selection === 'AUTO') {
      issues.push({
        path: `${path}.requirementId`,
        message: 'is assigned by the server and takes no selection',
      });
      return;
    }
    if (!requirement.resourceIds.includes(selection.resourceId)) {
      issues.push({ path: `${path}.resourceId`, message: "is not in the requirement's pool" });
      return;
    }
    if (selection.quantity < 1) {
      issues.push({ path: `${path}.quantity`, message: 'must be at least 1' });
      return;
    }
    selected.set(requirement.id, [...(selected.get(requirement.id) ?? []), selection]);
  });
  if (issues.length > 0) return issues;

  for (const requirement of service.requirements) {
    const chosen = selected.get(requirement.id) ?? [];
    const units = unitsNeeded(requirement, quantity);
    if (chosen.length === 0) {
      if (options.complete && requirement.selection === 'REQUIRED') {
        issues.push({
          path: options.path,
          message: `requirement ${requirement.id} needs a resource selection`,
        });
      }
      continue;
    }
    const sum = chosen.reduce((total, selection) => total + selection.quantity, 0);
    const resources = new Set(chosen.map((selection) => selection.resourceId));
    if (resources.size !== chosen.length) {
      issues.push({ path: options.path, message: `requirement ${requirement.id} selects a resource twice` });
    } else if (chosen.length > 1 && !requirement.allowSplit) {
      issues.push({
        path: options.path,
        message: `requirement ${requirement.id} takes all units from one resource`,
      });
    } else if (options.complete || !requirement.allowSplit ? sum !== units : sum > units) {
      issues.push({
        path: options.path,
        message: `quantities for requirement ${requirement.id} must sum to its ${units} units`,
      });
    }
  }
  return issues;
}

/**
 * Whether an interval has the shape a search would offer, for holds:
 * a fixed slot of its weekday; a start on the grid (its first occurrence) with
 * a duration choice; a start and end on the grid within the duration limits.
 */
export function intervalShapeIssues(
  service: Pick<BookableService, 'periodMode' | 'timezone' | 'durations' | 'fixedSlots'>,
  startsAt: number,
  endsAt: number,
): ValidationIssue[] {
  if (endsAt <= startsAt) return [{ path: 'endsAt', message: 'must be after startsAt' }];
  const timeZone = service.timezone;
  if (service.periodMode === 'FIXED_SLOT') {
    return fixedSlotEndsAt(service, startsAt).includes(endsAt)
      ? []
      : [{ path: 'startsAt', message: 'must be the start and end of one of the service fixed slots' }];
  }
  const grid = gridOf(service);
  const issues: ValidationIssue[] = [];
  const start = epochMinutesToLocal(timeZone, startsAt);
  if (
    start.minuteOfDay % grid !== 0 ||
    localToEpochMinutes(timeZone, start.day, start.minuteOfDay, 'skip') !== startsAt
  ) {
    issues.push({ path: 'startsAt', message: `must be on the ${grid}-minute grid from local midnight` });
  }
  if (service.periodMode === 'FIXED_DURATION') {
    const choices = service.durations?.choicesMinutes ?? [];
    // Compared by end, not by measured duration: 24 elapsed hours across a change are not the 1,440 choice.
    if (!choices.some((choice) => endAfter(timeZone, startsAt, choice) === endsAt)) {
      issues.push({ path: 'endsAt', message: `the duration must be one of ${choices.join(', ')} minutes` });
    }
    return issues;
  }
  const duration = durationBetween(timeZone, startsAt, endsAt);
  if (!isOnGrid(timeZone, endsAt, grid)) {
    issues.push({ path: 'endsAt', message: `must be on the ${grid}-minute grid from local midnight` });
  }
  const min = service.durations?.minMinutes ?? 1;
  const max = service.durations?.maxMinutes ?? Number.POSITIVE_INFINITY;
  if (duration < min || duration > max) {
    issues.push({ path: 'endsAt', message: `the duration must be ${min} to ${max} minutes` });
  }
  return issues;
}

export interface SearchParameters {
  startsAt: number;
  endsAt: number;
  quantity: number;
  durationMinutes?: number | undefined;
  selection?: ResourceSelection | undefined;
}

/**
 * The service-dependent 400s of a search; returns the duration to
 * search with: a choice, the EXACT_RANGE duration, or null for an EXACT_RANGE
 * window tested itself and for fixed slots.
 */
export function validateSearch(
  service: BookableService,
  search: SearchParameters,
): { durationMinutes: number | null } {
  const issues = partySizeIssues(service, search.quantity);
  let durationMinutes: number | null = null;
  const requested = search.durationMinutes;
  if (service.periodMode === 'FIXED_SLOT') {
    if (requested !== undefined)
      issues.push({ path: 'durationMinutes', message: 'is not taken by FIXED_SLOT services' });
  } else if (service.periodMode === 'FIXED_DURATION') {
    const choices = service.durations?.choicesMinutes ?? [];
    if (requested === undefined) {
      if (choices.length === 1) durationMinutes = choices[0] as number;
      else issues.push({ path: 'durationMinutes', message: `is required: one of ${choices.join(', ')}` });
    } else if (choices.includes(requested)) {
      durationMinutes = requested;
    } else {
      issues.push({ path: 'durationMinutes', message: `must be one of ${choices.join(', ')}` });
    }
  } else if (requested !== undefined) {
    const grid = gridOf(service);
    const min = service.durations?.minMinutes ?? 1;
    const max = service.durations?.maxMinutes ?? Number.POSITIVE_INFINITY;
    if (requested < min || requested > max || requested % grid !== 0) {
      issues.push({
        path: 'durationMinutes',
        message: `must be ${min} to ${max} minutes, a multiple of ${grid}`,
      });
    } else {
      durationMinutes = requested;
    }
  } else {
    issues.push(...intervalShapeIssues(service, search.startsAt, search.endsAt));
  }
  if (search.selection) {
    issues.push(
      ...selectionIssues(service, search.quantity, [search.selection], {
        path: 'selection',
        complete: false,
      }),
    );
  }
  if (issues.length > 0) throw AppError.validation(issues);
  return { durationMinutes };
}
