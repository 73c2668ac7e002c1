/**
 * The proven-fit package recommendation (docs/fulfillment.md "Package recommendation"): a
 * pure, deterministic function of the units to ship and the active box
 * presets. It claims a fit only with a proof on the inner dimensions using the
 * six axis-aligned orientations (no tilting, nesting or squashing), so it may
 * miss a packing a person would find but never claims an impossible one.
 */

export const MAX_RECOMMENDATION_UNITS = 1000;

export const SHIPPING_DIMENSION_NAMES = [
  'shippingWeightGrams',
  'shippingLengthMm',
  'shippingWidthMm',
  'shippingHeightMm',
] as const;
export type ShippingDimensionName = (typeof SHIPPING_DIMENSION_NAMES)[number];
export type UnitDimensions = Record<ShippingDimensionName, number | null>;

/** One line to pack: `quantity` units of the same item (and variant). */
export interface PackLine {
  lineId: string;
  itemId: string | null;
  variantId: string | null;
  quantity: number;
  /** The variant's dimensions; null without a variant (or a variant no longer found). */
  variant: UnitDimensions | null;
  /** The item's dimensions; null when the item is no longer found. */
  item: UnitDimensions | null;
}

export interface Box {
  lengthMm: number;
  widthMm: number;
  heightMm: number;
}

export interface CandidatePreset {
  id: string;
  revision: number;
  name: string;
  inner: Box;
  outer: Box;
  tareWeightGrams: number;
  maxLoadGrams: number | null;
  sortOrder: number;
}

export type RecommendationReason =
  | 'NO_PRODUCT_UNITS'
  | 'TOO_MANY_UNITS'
  | 'MISSING_DIMENSIONS'
  | 'NO_ACTIVE_PRESETS'
  | 'NO_PROVEN_FIT';
export type FitProof = 'SINGLE_UNIT' | 'GRID' | 'STACK';
export type StackAxis = 'LENGTH' | 'WIDTH' | 'HEIGHT';

export interface MissingDimensions {
  lineId: string;
  itemId: string | null;
  variantId: string | null;
  fields: ShippingDimensionName[];
}

export interface PackageRecommendation {
  boxPresetId: string;
  boxPresetRevision: number;
  name: string;
  inner: Box;
  outer: Box;
  loadedWeightGrams: number;
  proof: FitProof;
  stackAxis: StackAxis | null;
}

export interface RecommendationResult {
  recommendation: PackageRecommendation | null;
  /** Null exactly when there is a recommendation. */
  reason: RecommendationReason | null;
  missing: MissingDimensions[];
  unitCount: number;
  /** The units' weight; null when it is not known (too many units, missing dimensions). */
  catalogWeightGrams: number | null;
  evaluatedPresetCount: number;
}

/** One unit's size as a triple (length, width, height) and its weight. */
interface Unit {
  dimensions: [number, number, number];
  weightGrams: number;
}

const missingFields = (dimensions: UnitDimensions | null): ShippingDimensionName[] =>
  SHIPPING_DIMENSION_NAMES.filter((name) => dimensions === null || dimensions[name] === null);

/**
 * A line's unit: the variant's dimensions when it has all four, else the
 * item's when that has all four; never mixed. Otherwise the names missing from
 * the variant when it has any dimension (the source the merchant started to
 * fill in), else from the item.
 */
function unitOf(line: PackLine): Unit | ShippingDimensionName[] {
  for (const source of [line.variant, line.item]) {
    if (source !== null && missingFields(source).length === 0) {
      return {
        dimensions: [source.shippingLengthMm!, source.shippingWidthMm!, source.shippingHeightMm!],
        weightGrams: source.shippingWeightGrams!,
      };
    }
  }
  const variantMissing = missingFields(line.variant);
  return line.variant !== null && variantMissing.length < SHIPPING_DIMENSION_NAMES.length
    ? variantMissing
    : missingFields(line.item);
}

const ascending = (values: readonly number[]): number[] => [...values].sort((a, b) => a - b);

/** The six axis-aligned orientations of a triple. */
function orientations([a, b, c]: readonly [number, number, number]): [number, number, number][] {
  return [
    [a, b, c],
    [a, c, b],
    [b, a, c],
    [b, c, a],
    [c, a, b],
    [c, b, a],
  ];
}

function fitsSingle(unit: Unit, box: readonly [number, number, number]): boolean {
  const u = ascending(unit.dimensions);
  const b = ascending(box);
  return u[0]! <= b[0]! && u[1]! <= b[1]! && u[2]! <= b[2]!;
}

function fitsGrid(units: readonly Unit[], box: readonly [number, number, number]): boolean {
  const shape = ascending(units[0]!.dimensions).join('x');
  if (units.some((unit) => ascending(unit.dimensions).join('x') !== shape)) return false;
  return orientations(units[0]!.dimensions).some(
    ([x, y, z]) => Math.floor(box[0] / x) * Math.floor(box[1] / y) * Math.floor(box[2] / z) >= units.length,
  );
}

const AXES: StackAxis[] = ['LENGTH', 'WIDTH', 'HEIGHT'];

/**
 * The first box axis k along which the units stack: each unit has an
 * orientation whose two cross dimensions fit the other two box dimensions
 * (sorted against sorted), and the units' smallest such extents along k sum
 * to at most the box's k dimension.
 */
function stackAxis(units: readonly Unit[], box: readonly [number, number, number]): StackAxis | null {
  for (let k = 0; k < 3; k++) {
    const [crossSmall, crossLarge] = ascending(box.filter((_, index) => index !== k));
    let height = 0;
    for (const unit of units) {
      let smallest = Number.POSITIVE_INFINITY;
      for (let along = 0; along < 3; along++) {
        const [p, q] = ascending(unit.dimensions.filter((_, index) => index !== along));
        if (p! <= crossSmall! && q! <= crossLarge!) smallest = Math.min(smallest, unit.dimensions[along]!);
      }
      height += smallest;
      if (height > box[k]!) break;
    }
    if (height <= box[k]!) return AXES[k]!;
  }
  return null;
}

function proofOf(
  units: readonly Unit[],
  box: readonly [number, number, number],
): { proof: FitProof; stackAxis: StackAxis | null } | null {
  if (units.length === 1 && fitsSingle(units[0]!, box)) return { proof: 'SINGLE_UNIT', stackAxis: null };
  if (fitsGrid(units, box)) return { proof: 'GRID', stackAxis: null };
  const axis = stackAxis(units, box);
  return axis === null ? null : { proof: 'STACK', stackAxis: axis };
}

const volumeOf = (box: Box) => box.lengthMm * box.widthMm * box.heightMm;

/** Smallest inner volume, then tare, `sortOrder`, id. */
function isBetter(candidate: CandidatePreset, best: CandidatePreset): boolean {
  const byVolume = volumeOf(candidate.inner) - volumeOf(best.inner);
  if (byVolume !== 0) return byVolume < 0;
  if (candidate.tareWeightGrams !== best.tareWeightGrams)
    return candidate.tareWeightGrams < best.tareWeightGrams;
  if (candidate.sortOrder !== best.sortOrder) return candidate.sortOrder < best.sortOrder;
  return candidate.id < best.id;
}

const noRecommendation = (
  reason: RecommendationReason,
  rest: Omit<RecommendationResult, 'recommendation' | 'reason'>,
): RecommendationResult => ({ recommendation: null, reason, ...rest });

export function recommendPackage(
  lines: readonly PackLine[],
  presets: readonly CandidatePreset[],
): RecommendationResult {
  const unitCount = lines.reduce((sum, line) => sum + line.quantity, 0);
  const empty = { missing: [], unitCount, evaluatedPresetCount: 0 };
  if (unitCount === 0) return noRecommendation('NO_PRODUCT_UNITS', { ...empty, catalogWeightGrams: 0 });
  if (unitCount > MAX_RECOMMENDATION_UNITS) {
    return noRecommendation('TOO_MANY_UNITS', { ...empty, catalogWeightGrams: null });
  }

  const units: Unit[] = [];
  const missing: MissingDimensions[] = [];
  for (const line of lines) {
    if (line.quantity === 0) continue;
    const unit = unitOf(line);
    if (Array.isArray(unit)) {
      missing.push({ lineId: line.lineId, itemId: line.itemId, variantId: line.variantId, fields: unit });
      continue;
    }
    for (let index = 0; index < line.quantity; index++) units.push(unit);
  }
  if (missing.length > 0) {
    return noRecommendation('MISSING_DIMENSIONS', { ...empty, missing, catalogWeightGrams: null });
  }
  const catalogWeightGrams = units.reduce((sum, unit) => sum + unit.weightGrams, 0);
  if (presets.length === 0) return noRecommendation('NO_ACTIVE_PRESETS', { ...empty, catalogWeightGrams });

  let best: { preset: CandidatePreset; proof: FitProof; stackAxis: StackAxis | null } | null = null;
  for (const preset of presets) {
    const loaded = catalogWeightGrams + preset.tareWeightGrams;
    if (preset.maxLoadGrams !== null && loaded > preset.maxLoadGrams) continue;
    if (best !== null && !isBetter(preset, best.preset)) continue;
    const proven = proofOf(units, [preset.inner.lengthMm, preset.inner.widthMm, preset.inner.heightMm]);
    if (proven !== null) best = { preset, ...proven };
  }
  const evaluated = { missing, unitCount, catalogWeightGrams, evaluatedPresetCount: presets.length };
  if (best === null) return noRecommendation('NO_PROVEN_FIT', evaluated);
  const { preset } = best;
  return {
    recommendation: {
      boxPresetId: preset.id,
      boxPresetRevision: preset.revision,
      name: preset.name,
      inner: preset.inner,
      outer: preset.outer,
      loadedWeightGrams: catalogWeightGrams + preset.tareWeightGrams,
      proof: best.proof,
      stackAxis: best.stackAxis,
    },
    reason: null,
    ...evaluated,
  };
}
