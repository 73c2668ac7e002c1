/**
 * Free units of a resource over an interval (14.4, 14.19): its capacity minus
 * the peak of its live claims overlapping the interval, never their sum (two
 * claims of 1 that do not meet leave 1 of 2 free between them).
 *
 * The claims come as the compact read gives them: per resource, parallel
 * integer arrays of start minutes, end minutes (epoch minutes, half-open,
 * buffers included) and quantities. They are turned once into a step function
 * of units in use, so each interval asks a binary search and the steps inside
 * it instead of every claim.
 */

export interface ResourceClaims {
  /** Units in use at one instant at most (1 to 10,000). */
  capacity: number;
  starts: ArrayLike<number>;
  ends: ArrayLike<number>;
  quantities: ArrayLike<number>;
}

export interface ResourceLoad {
  capacity: number;
  /** Instants where the units in use change, ascending. */
  readonly points: Float64Array;
  /** Units in use on `[points[i], points[i + 1])`; 0 before the first point. */
  readonly levels: Float64Array;
}

/** Builds the step function; ends before starts at the same instant, so touching claims never add up. */
export function resourceLoad(claims: ResourceClaims): ResourceLoad {
  const count = claims.starts.length;
  const deltas = new Map<number, number>();
  for (let index = 0; index < count; index++) {
    const start = claims.starts[index] as number;
    const end = claims.ends[index] as number;
    const quantity = claims.quantities[index] as number;
    if (end <= start || quantity <= 0) continue;
    deltas.set(start, (deltas.get(start) ?? 0) + quantity);
    deltas.set(end, (deltas.get(end) ?? 0) - quantity);
  }
  const points = Float64Array.from(deltas.keys()).sort();
  const levels = new Float64Array(points.length);
  let inUse = 0;
  for (let index = 0; index < points.length; index++) {
    inUse += deltas.get(points[index] as number) as number;
    levels[index] = inUse;
  }
  return { capacity: claims.capacity, points, levels };
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
