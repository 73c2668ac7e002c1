import { describe, expect, it } from 'vitest';
import {
  type CandidatePreset,
  type PackLine,
  type RecommendationResult,
  recommendPackage,
  type UnitDimensions,
} from './recommend-package.ts';

/** Dimensions as [weight, length, width, height]; null entries are unknown. */
const dims = (
  weight: number | null,
  length: number | null,
  width: number | null,
  height: number | null,
): UnitDimensions => ({
  shippingWeightGrams: weight,
  shippingLengthMm: length,
  shippingWidthMm: width,
  shippingHeightMm: height,
});

let lineSequence = 0;
/** A line of `quantity` units with the item's dimensions (and a variant's, when given). */
function line(
  quantity: number,
  item: UnitDimensions | null,
  variant: UnitDimensions | null = null,
): PackLine {
  lineSequence += 1;
  return {
    lineId: `sli_${lineSequence}`,
    itemId: `itm_${lineSequence}`,
    variantId: variant === null ? null : `var_${lineSequence}`,
    quantity,
    item,
    variant,
  };
}

/** A preset `[L, W, H]` inner (outer 10 mm larger), 100 g tare, no load limit, unless changed. */
function box(
  id: string,
  [l, w, h]: [number, number, number],
  changes: Partial<CandidatePreset> = {},
): CandidatePreset {
  return {
    id,
    revision: 1,
    name: id,
    inner: { lengthMm: l, widthMm: w, heightMm: h },
    outer: { lengthMm: l + 10, widthMm: w + 10, heightMm: h + 10 },
    tareWeightGrams: 100,
    maxLoadGrams: null,
    sortOrder: 0,
    ...changes,
  };
}

interface Case {
  name: string;
  lines: PackLine[];
  presets: CandidatePreset[];
  /** The expected box (or null), proof, stack axis and reason. */
  expected: {
    boxPresetId: string | null;
    proof?: string;
    stackAxis?: string | null;
    reason: string | null;
    loadedWeightGrams?: number;
    catalogWeightGrams?: number | null;
    unitCount?: number;
    evaluatedPresetCount?: number;
  };
}

const CASES: Case[] = [
  {
    name: 'single unit: fits once its sorted dimensions are compared with the box’s',
    lines: [line(1, dims(500, 100, 50, 30))],
    presets: [box('box_a', [40, 120, 60])],
    expected: {
      boxPresetId: 'box_a',
      proof: 'SINGLE_UNIT',
      stackAxis: null,
      reason: null,
      loadedWeightGrams: 600,
    },
  },
  {
    name: 'single unit: one dimension a millimetre too long is no fit',
    lines: [line(1, dims(500, 121, 50, 30))],
    presets: [box('box_a', [40, 120, 60])],
    expected: { boxPresetId: null, reason: 'NO_PROVEN_FIT', evaluatedPresetCount: 1 },
  },
  {
    name: 'single unit: the smallest box that fits wins over a larger one listed first',
    lines: [line(1, dims(200, 100, 100, 100))],
    presets: [
      box('box_big', [300, 300, 300]),
      box('box_small', [100, 100, 100]),
      box('box_tiny', [99, 200, 200]),
    ],
    expected: { boxPresetId: 'box_small', proof: 'SINGLE_UNIT', reason: null },
  },
  {
    name: 'grid: 8 cubes of 50 fill a cube of 100',
    lines: [line(8, dims(10, 50, 50, 50))],
    presets: [box('box_a', [100, 100, 100])],
    expected: { boxPresetId: 'box_a', proof: 'GRID', stackAxis: null, reason: null, catalogWeightGrams: 80 },
  },
  {
    name: 'grid: a ninth cube does not fit (and no stack proves it)',
    lines: [line(9, dims(10, 50, 50, 50))],
    presets: [box('box_a', [100, 100, 100])],
    expected: { boxPresetId: null, reason: 'NO_PROVEN_FIT' },
  },
  {
    name: 'grid: found in a rotated orientation, across lines of one shape given in other orders',
    lines: [line(3, dims(10, 30, 20, 10)), line(3, dims(10, 10, 30, 20))],
    presets: [box('box_a', [60, 20, 30])],
    expected: { boxPresetId: 'box_a', proof: 'GRID', reason: null, unitCount: 6 },
  },
  {
    name: 'stack: units of different sizes stack along the height',
    lines: [line(1, dims(300, 100, 100, 20)), line(1, dims(200, 90, 80, 30))],
    presets: [box('box_a', [100, 100, 50])],
    expected: {
      boxPresetId: 'box_a',
      proof: 'STACK',
      stackAxis: 'HEIGHT',
      reason: null,
      loadedWeightGrams: 600,
    },
  },
  {
    name: 'stack: along the length when that is the axis that holds them',
    lines: [line(1, dims(1, 30, 40, 40)), line(1, dims(1, 40, 20, 40))],
    presets: [box('box_a', [50, 40, 40])],
    expected: { boxPresetId: 'box_a', proof: 'STACK', stackAxis: 'LENGTH', reason: null },
  },
  {
    name: 'stack: a millimetre too tall is no fit',
    lines: [line(1, dims(300, 100, 100, 20)), line(1, dims(200, 90, 80, 31))],
    presets: [box('box_a', [100, 100, 50])],
    expected: { boxPresetId: null, reason: 'NO_PROVEN_FIT' },
  },
  {
    name: 'missing dimension: one unknown value of the item, nothing guessed',
    lines: [line(1, dims(100, 10, 10, 10)), line(2, dims(100, 10, null, 10))],
    presets: [box('box_a', [100, 100, 100])],
    expected: {
      boxPresetId: null,
      reason: 'MISSING_DIMENSIONS',
      catalogWeightGrams: null,
      evaluatedPresetCount: 0,
    },
  },
  {
    name: 'a variant with all four values is used, not its item’s',
    lines: [line(1, dims(100, 500, 500, 500), dims(50, 10, 10, 10))],
    presets: [box('box_a', [20, 20, 20])],
    expected: { boxPresetId: 'box_a', proof: 'SINGLE_UNIT', reason: null, catalogWeightGrams: 50 },
  },
  {
    name: 'an incomplete variant falls back to its complete item',
    lines: [line(1, dims(100, 10, 10, 10), dims(50, null, null, null))],
    presets: [box('box_a', [20, 20, 20])],
    expected: { boxPresetId: 'box_a', reason: null, catalogWeightGrams: 100 },
  },
  {
    name: 'weight limit: a box whose maxLoadGrams the loaded weight passes is skipped for a larger one',
    lines: [line(2, dims(1000, 10, 10, 10))],
    presets: [
      box('box_small', [20, 20, 20], { maxLoadGrams: 2099 }),
      box('box_large', [30, 30, 30], { maxLoadGrams: 2100 }),
    ],
    expected: { boxPresetId: 'box_large', proof: 'GRID', reason: null, loadedWeightGrams: 2100 },
  },
  {
    name: 'weight limit: no box can carry it',
    lines: [line(1, dims(5000, 10, 10, 10))],
    presets: [box('box_a', [20, 20, 20], { maxLoadGrams: 5000 })],
    expected: { boxPresetId: null, reason: 'NO_PROVEN_FIT', evaluatedPresetCount: 1 },
  },
  {
    name: 'tie-break: equal volume goes to the lighter tare',
    lines: [line(1, dims(10, 10, 10, 10))],
    presets: [
      box('box_a', [20, 20, 40], { tareWeightGrams: 90 }),
      box('box_b', [40, 20, 20], { tareWeightGrams: 80 }),
    ],
    expected: { boxPresetId: 'box_b', reason: null, loadedWeightGrams: 90 },
  },
  {
    name: 'tie-break: equal volume and tare go to the lower sortOrder',
    lines: [line(1, dims(10, 10, 10, 10))],
    presets: [box('box_a', [20, 20, 40], { sortOrder: 2 }), box('box_b', [40, 20, 20], { sortOrder: 1 })],
    expected: { boxPresetId: 'box_b', reason: null },
  },
  {
    name: 'tie-break: everything equal goes to the lower id',
    lines: [line(1, dims(10, 10, 10, 10))],
    presets: [box('box_b', [20, 20, 40]), box('box_a', [40, 20, 20])],
    expected: { boxPresetId: 'box_a', reason: null },
  },
  {
    name: 'no active presets',
    lines: [line(2, dims(250, 10, 10, 10))],
    presets: [],
    expected: {
      boxPresetId: null,
      reason: 'NO_ACTIVE_PRESETS',
      catalogWeightGrams: 500,
      evaluatedPresetCount: 0,
    },
  },
  {
    name: 'too many units: 1001 are refused before anything else',
    lines: [line(1000, dims(1, 1, 1, 1)), line(1, null)],
    presets: [box('box_a', [3000, 3000, 3000])],
    expected: { boxPresetId: null, reason: 'TOO_MANY_UNITS', unitCount: 1001, catalogWeightGrams: null },
  },
  {
    name: 'exactly 1000 units are evaluated',
    lines: [line(1000, dims(1, 10, 10, 10))],
    presets: [box('box_a', [100, 100, 100])],
    expected: { boxPresetId: 'box_a', proof: 'GRID', reason: null, unitCount: 1000 },
  },
  {
    name: 'no product units',
    lines: [],
    presets: [box('box_a', [100, 100, 100])],
    expected: { boxPresetId: null, reason: 'NO_PRODUCT_UNITS', unitCount: 0, catalogWeightGrams: 0 },
  },
];

describe('recommendPackage', () => {
  it.each(CASES)('$name', ({ lines, presets, expected }) => {
    const result = recommendPackage(lines, presets);
    expect(result.recommendation?.boxPresetId ?? null).toBe(expected.boxPresetId);
    expect(result.reason).toBe(expected.reason);
    // The reason is null exactly when there is a recommendation.
    expect(result.reason === null).toBe(result.recommendation !== null);
    if (expected.proof !== undefined) expect(result.recommendation?.proof).toBe(expected.proof);
    if (expected.stackAxis !== undefined) expect(result.recommendation?.stackAxis).toBe(expected.stackAxis);
    if (expected.loadedWeightGrams !== undefined)
      expect(result.recommendation?.loadedWeightGrams).toBe(expected.loadedWeightGrams);
    if (expected.catalogWeightGrams !== undefined)
      expect(result.catalogWeightGrams).toBe(expected.catalogWeightGrams);
    if (expected.unitCount !== undefined) expect(result.unitCount).toBe(expected.unitCount);
    if (expected.evaluatedPresetCount !== undefined)
      expect(result.evaluatedPresetCount).toBe(expected.evaluatedPresetCount);
  });

  it('answers the whole shape of a recommendation, the preset’s revision and outer size included', () => {
    const preset = box('box_a', [40, 120, 60], { revision: 7, name: 'Mailer' });
    const result = recommendPackage([line(1, dims(500, 100, 50, 30))], [preset]);
    expect(result).toEqual<RecommendationResult>({
      recommendation: {
        boxPresetId: 'box_a',
        boxPresetRevision: 7,
        name: 'Mailer',
        inner: { lengthMm: 40, widthMm: 120, heightMm: 60 },
        outer: { lengthMm: 50, widthMm: 130, heightMm: 70 },
        loadedWeightGrams: 600,
        proof: 'SINGLE_UNIT',
        stackAxis: null,
      },
      reason: null,
      missing: [],
      unitCount: 1,
      catalogWeightGrams: 500,
      evaluatedPresetCount: 1,
    });
  });

  it('names each line missing dimensions with the fields to fill in, never mixing item and variant', () => {
    const complete = line(1, dims(1, 1, 1, 1));
    const itemOnly = line(2, dims(100, null, 10, null));
    const partialVariant = line(1, dims(null, null, null, 40), dims(100, 10, 10, null));
    const emptyVariant = line(1, dims(100, 10, 10, null), dims(null, null, null, null));
    const unknownItem = { ...line(1, null), itemId: null };
    const result = recommendPackage(
      [complete, itemOnly, partialVariant, emptyVariant, unknownItem],
      [box('box_a', [100, 100, 100])],
    );
    expect(result).toMatchObject({ reason: 'MISSING_DIMENSIONS', unitCount: 6, evaluatedPresetCount: 0 });
    expect(result.missing).toEqual([
      {
        lineId: itemOnly.lineId,
        itemId: itemOnly.itemId,
        variantId: null,
        fields: ['shippingLengthMm', 'shippingHeightMm'],
      },
      {
        lineId: partialVariant.lineId,
        itemId: partialVariant.itemId,
        variantId: partialVariant.variantId,
        fields: ['shippingHeightMm'],
      },
      {
        lineId: emptyVariant.lineId,
        itemId: emptyVariant.itemId,
        variantId: emptyVariant.variantId,
        fields: ['shippingHeightMm'],
      },
      {
        lineId: unknownItem.lineId,
        itemId: null,
        variantId: null,
        fields: ['shippingWeightGrams', 'shippingLengthMm', 'shippingWidthMm', 'shippingHeightMm'],
      },
    ]);
  });

  it('is deterministic: the order of the presets does not change the answer', () => {
    const lines = [line(4, dims(10, 25, 25, 50))];
    const presets = [
      box('box_c', [50, 50, 100], { tareWeightGrams: 50 }),
      box('box_b', [100, 50, 50], { tareWeightGrams: 50 }),
      box('box_a', [60, 60, 100]),
      box('box_d', [50, 50, 49]),
    ];
    const answers = new Set(
      [presets, [...presets].reverse(), [presets[2]!, presets[0]!, presets[3]!, presets[1]!]].map((order) =>
        JSON.stringify(recommendPackage(lines, order)),
      ),
    );
    expect(answers.size).toBe(1);
    expect(recommendPackage(lines, presets).recommendation?.boxPresetId).toBe('box_b');
  });

  it('never claims an impossible fit: every recommended box holds each unit and their total volume', () => {
    // A small deterministic generator, so a failure can be replayed.
    let seed = 42;
    const next = (max: number) => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return 1 + (seed % max);
    };
    let recommended = 0;
    for (let round = 0; round < 300; round++) {
      const lines = Array.from({ length: next(3) }, () =>
        line(next(4), dims(next(500), next(60), next(60), next(60))),
      );
      const presets = Array.from({ length: next(4) }, (_, index) =>
        box(`box_${round}_${index}`, [next(120), next(120), next(120)]),
      );
      const result = recommendPackage(lines, presets);
      if (result.recommendation === null) continue;
      recommended += 1;
      const { inner } = result.recommendation;
      const sortedBox = [inner.lengthMm, inner.widthMm, inner.heightMm].sort((a, b) => a - b);
      let unitVolume = 0;
      for (const packed of lines) {
        const unit = [
          packed.item!.shippingLengthMm!,
          packed.item!.shippingWidthMm!,
          packed.item!.shippingHeightMm!,
        ];
        const sorted = [...unit].sort((a, b) => a - b);
        expect(sorted.every((value, index) => value <= sortedBox[index]!)).toBe(true);
        unitVolume += packed.quantity * unit[0]! * unit[1]! * unit[2]!;
      }
      expect(unitVolume).toBeLessThanOrEqual(inner.lengthMm * inner.widthMm * inner.heightMm);
    }
    // The rounds exercise the proofs, not only refusals.
    expect(recommended).toBeGreaterThan(30);
  });
});
