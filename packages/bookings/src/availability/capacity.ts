/**
 * Free units of a resource over an interval: its capacity minus the peak of
 * its live claims overlapping the interval, never their sum (two claims of 1
 * that do not meet leave 1 of 2 free between them).
 *
 * The claims come as the compact read gives them: per resource, parallel
 * integer arrays of start minutes, end minutes (epoch minutes, half-open,
 * buffers included) and quantities. They are turned once into a step function
 * of units in use, so each interval asks a binary search and the steps inside
 * it instead of every claim.
 */

export interface ClaimArrays {
  /** Units in use at one instant at most (1 to 10,000). */
  capacity: number;
  startMinutes: ArrayLike<number>;
  endMinutes: ArrayLike<number>;
  quantities: ArrayLike<number>;
}

export interface ResourceLoad {
  capacity: number;
  /** Instants where the units in use change, ascending. */
  readonly points: Float64Array;
  /** Units in use on `[points[i], points[i + 1])`; 0 before the first point. */
  readonly levels: Float64Array;
}

/** Quantities ride in the low bits of a sort key: at most 10,000 < 2^14 units per claim. */
const QUANTITY_BITS = 16_384;

function sortedKeys(instants: ArrayLike<number>, claims: ClaimArrays): Float64Array {
  const keys = new Float64Array(instants.length);
  let count = 0;
  for (let index = 0; index < instants.length; index++) {
    const quantity = claims.quantities[index] as number;
    if ((claims.endMinutes[index] as number) <= (claims.startMinutes[index] as number) || quantity <= 0)
      continue;
    keys[count++] = (instants[index] as number) * QUANTITY_BITS + Math.min(quantity, QUANTITY_BITS - 1);
  }
  return keys.subarray(0, count).sort();
}

/**
 * Builds the step function from the claims sorted by start and by end (typed
 * array sorts, no per-claim objects); ends before starts at the same instant,
 * so touching claims never add up.
 */
export function resourceLoad(claims: ClaimArrays): ResourceLoad {
  const starts = sortedKeys(claims.startMinutes, claims);
  const ends = sortedKeys(claims.endMinutes, claims);
  const points = new Float64Array(starts.length + ends.length);
  const levels = new Float64Array(starts.length + ends.length);
  let count = 0;
  let inUse = 0;
  let startIndex = 0;
  let endIndex = 0;
  const instantOf = (key: number) => Math.floor(key / QUANTITY_BITS);
  const quantityOf = (key: number) => key - instantOf(key) * QUANTITY_BITS;
  while (startIndex < starts.length || endIndex < ends.length) {
    const nextStart = startIndex < starts.length ? instantOf(starts[startIndex] as number) : Infinity;
    const nextEnd = endIndex < ends.length ? instantOf(ends[endIndex] as number) : Infinity;
    const instant = Math.min(nextStart, nextEnd);
    while (endIndex < ends.length && instantOf(ends[endIndex] as number) === instant) {
      inUse -= quantityOf(ends[endIndex++] as number);
    }
    while (startIndex < starts.length && instantOf(starts[startIndex] as number) === instant) {
      inUse += quantityOf(starts[startIndex++] as number);
    }
    points[count] = instant;
    levels[count++] = inUse;
  }
  return { capacity: claims.capacity, points: points.subarray(0, count), levels: levels.subarray(0, count) };
}

/** Index of the last point at or before `instant`, or -1. */
function stepAt(points: Float64Array, instant: number): number {
  let low = 0;
  let high = points.length - 1;
  let found = -1;
  while (low <= high) {
    const middle = (low + high) >>> 1;
    if ((points[middle] as number) <= instant) {
      found = middle;
      low = middle + 1;
    } else {
      high = middle - 1;
    }
  }
  return found;
}

/** Peak units in use over `[start, end)`. */
export function peakUnits(load: ResourceLoad, start: number, end: number): number {
  const { points, levels } = load;
  let index = stepAt(points, start);
  let peak = index >= 0 ? (levels[index] as number) : 0;
  for (index++; index < points.length && (points[index] as number) < end; index++) {
    const level = levels[index] as number;
    if (level > peak) peak = level;
  }
  return peak;
}

/** Capacity minus the peak over `[start, end)`, never below 0. */
export function freeUnits(load: ResourceLoad, start: number, end: number): number {
  return Math.max(0, load.capacity - peakUnits(load, start, end));
}

/**
 * Free units for a run of intervals with non-decreasing starts (the search's
 * candidates): the step under each start is found by walking on from the
 * previous one instead of searching again.
 */
export class LoadCursor {
  private step = -1;
  private lastStart = Number.NEGATIVE_INFINITY;

  constructor(private readonly load: ResourceLoad) {}

  freeUnits(start: number, end: number): number {
    const { points, levels } = this.load;
    if (start < this.lastStart) this.step = stepAt(points, start);
    else while (this.step + 1 < points.length && (points[this.step + 1] as number) <= start) this.step++;
    this.lastStart = start;
    let index = this.step;
    let peak = index >= 0 ? (levels[index] as number) : 0;
    for (index++; index < points.length && (points[index] as number) < end; index++) {
      const level = levels[index] as number;
      if (level > peak) peak = level;
    }
    return Math.max(0, this.load.capacity - peak);
  }
}
