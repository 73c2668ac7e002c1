/**
 * `npx -y pnpm@10.34.8 --filter @commerce/bench bench:recommendation`: the
 * proven-fit package recommendation (docs/fulfillment.md "Package recommendation") as the route
 * runs it after its two reads, over 50 active box presets and 100 units, in
 * three shapes: 100 identical units (a GRID proof), 100 units of 10 sizes (a
 * STACK proof) and 100 units no preset can prove (every preset and proof
 * tried: the worst case). A pure function: no database, no gateway.
 *
 * Knobs (environment): BENCH_ITERATIONS (2,000 per shape), BENCH_WARMUP (200),
 * BENCH_OUTPUT (results/package-recommendation.json).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type CandidatePreset, type PackLine, recommendPackage } from '@commerce/fulfillment';
import { intEnv } from './gateway-env.ts';
import { BENCH_DIR } from './paths.ts';

const ITERATIONS = intEnv('BENCH_ITERATIONS', 2000);
const WARMUP = intEnv('BENCH_WARMUP', 200);
const OUTPUT = path.resolve(BENCH_DIR, process.env.BENCH_OUTPUT ?? 'results/package-recommendation.json');

/** 50 presets from 150 × 100 × 50 mm up to about 1 m, in a mixed order (ties broken by the function). */
const presets: CandidatePreset[] = Array.from({ length: 50 }, (_, index) => {
  const step = (index * 17) % 50;
  const inner = { lengthMm: 150 + step * 18, widthMm: 100 + step * 12, heightMm: 50 + step * 9 };
  return {
    id: `box_${String(index).padStart(3, '0')}`,
    revision: 1,
    name: `Box ${index}`,
    inner,
    outer: { lengthMm: inner.lengthMm + 10, widthMm: inner.widthMm + 10, heightMm: inner.heightMm + 10 },
    tareWeightGrams: 100 + step * 10,
    maxLoadGrams: index % 5 === 0 ? 20_000 : null,
    sortOrder: index % 3,
  };
});

const dimensions = (length: number, width: number, height: number, weight: number) => ({
  shippingWeightGrams: weight,
  shippingLengthMm: length,
  shippingWidthMm: width,
  shippingHeightMm: height,
});

const line = (index: number, quantity: number, size: ReturnType<typeof dimensions>): PackLine => ({
  lineId: `sln_${index}`,
  itemId: `itm_${index}`,
  variantId: `var_${index}`,
  quantity,
  variant: size,
  item: null,
});

const shapes: { name: string; lines: PackLine[] }[] = [
  { name: '100 identical units (GRID)', lines: [line(0, 100, dimensions(60, 40, 30, 80))] },
  {
    name: '100 units of 10 sizes (STACK)',
    lines: Array.from({ length: 10 }, (_, index) =>
      line(index, 10, dimensions(120 + index * 7, 90 + index * 3, 6 + (index % 4), 40 + index * 5)),
    ),
  },
  {
    name: '100 units that fit no preset (every preset and proof tried)',
    lines: Array.from({ length: 10 }, (_, index) =>
      line(index, 10, dimensions(400 + index * 20, 300, 200 + index * 10, 900)),
    ),
  },
];

function percentile(sorted: number[], fraction: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * fraction))] as number;
}

const round3 = (value: number) => Math.round(value * 1000) / 1000;
const log = (text: string) => process.stdout.write(`${text}\n`);

const results = shapes.map((shape) => {
  const first = recommendPackage(shape.lines, presets);
  for (let index = 0; index < WARMUP; index++) recommendPackage(shape.lines, presets);
  const times: number[] = [];
  for (let index = 0; index < ITERATIONS; index++) {
    const started = performance.now();
    recommendPackage(shape.lines, presets);
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  const result = {
    shape: shape.name,
    unitCount: first.unitCount,
    evaluatedPresetCount: first.evaluatedPresetCount,
    outcome: first.recommendation
      ? `${first.recommendation.proof} in ${first.recommendation.name}`
      : first.reason,
    p50Ms: round3(percentile(times, 0.5)),
    p95Ms: round3(percentile(times, 0.95)),
    p99Ms: round3(percentile(times, 0.99)),
  };
  log(
    `${result.shape}: ${result.outcome}, ${result.evaluatedPresetCount} presets evaluated; ` +
      `p50 ${result.p50Ms} ms, p95 ${result.p95Ms} ms, p99 ${result.p99Ms} ms`,
  );
  return result;
});

mkdirSync(path.dirname(OUTPUT), { recursive: true });
writeFileSync(
  OUTPUT,
  `${JSON.stringify(
    {
      at: new Date().toISOString(),
      machine: { cpus: os.availableParallelism(), cpuModel: os.cpus()[0]?.model ?? 'unknown' },
      presets: presets.length,
      iterations: ITERATIONS,
      results,
    },
    null,
    2,
  )}\n`,
);
log(`wrote ${path.relative(process.cwd(), OUTPUT)}`);
