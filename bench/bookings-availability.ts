/**
 * `npx -y pnpm@10.34.8 --filter @commerce/bench bench:availability`: the pure
 * availability search (packages/bookings `validateSearch` + `searchSlots`) over
 * 31 days, without the database, to show how much of the 50 ms p95 target of a
 * search on the embedded database the computation leaves to the claims query.
 *
 * The service: FIXED_DURATION, Europe/Berlin (the window crosses the start of
 * summer time), open 08:00 to 20:00 every day, 60 minutes on a 30-minute grid,
 * a 15-minute buffer after, party of 1; one requirement whose pool holds every
 * resource (capacity 2 each), either AUTO (no options listed: every candidate
 * runs to the end) or OPTIONAL (options listed per slot, so the 20,000-option
 * cap truncates the result). Each resource has 10 claims a day, 30 to 90
 * minutes long, at seeded random times in opening hours.
 *
 * Prints and writes wall-clock p50, p95 and max per scenario, and the
 * process CPU time per search (p50, p95), which a loaded machine inflates less.
 *
 * Knobs (environment): BENCH_ITERATIONS (300), BENCH_WARMUP (30),
 * BENCH_OUTPUT (results/bookings-availability.json).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import {
  availabilityRulesSchema,
  type BookableService,
  type ClaimArrays,
  parseInstant,
  searchSlots,
  validateSearch,
} from '@commerce/bookings';

const ITERATIONS = Number(process.env.BENCH_ITERATIONS ?? 300);
const WARMUP = Number(process.env.BENCH_WARMUP ?? 30);
const OUTPUT =
  process.env.BENCH_OUTPUT ?? path.join(import.meta.dirname, 'results', 'bookings-availability.json');

const WINDOW_START = '2026-03-15T00:00+01:00';
const WINDOW_END = '2026-04-15T00:00+02:00';
const CLAIMS_PER_DAY = 10;

/** Mulberry32: the same claims on every run. */
function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let value = state;
    value = Math.imul(value ^ (value >>> 15), value | 1);
    value ^= value + Math.imul(value ^ (value >>> 7), value | 61);
    return ((value ^ (value >>> 14)) >>> 0) / 4_294_967_296;
  };
}

function service(resourceIds: string[], selection: 'AUTO' | 'OPTIONAL'): BookableService {
  const open = [{ start: '08:00', end: '20:00' }];
  return {
    periodMode: 'FIXED_DURATION',
    timezone: 'Europe/Berlin',
    durations: { choicesMinutes: [60], startIntervalMinutes: 30 },
    fixedSlots: null,
    partySize: { min: 1, max: 4 },
    availability: availabilityRulesSchema.parse({
      weeklyHours: { MON: open, TUE: open, WED: open, THU: open, FRI: open, SAT: open, SUN: open },
      bufferAfterMinutes: 15,
    }),
    requirements: [
      { id: 'brq_pool', resourceIds, units: { mode: 'PER_BOOKING', count: 1 }, selection, allowSplit: false },
    ],
    pricing: {
      basis: 'PER_PERIOD',
      amountInCents: 2500,
      period: 'HOUR',
      perParticipant: false,
      minimumInCents: null,
    },
    checkout: { paymentMode: 'DEPOSIT', deposit: { percent: 20 } },
    currency: 'EUR',
  };
}

/** What the compact claims read returns: per resource, integer arrays of epoch minutes and quantities. */
function claimsFor(resourceIds: string[], startMinute: number, days: number): Map<string, ClaimArrays> {
  const random = seededRandom(resourceIds.length);
  const claims = new Map<string, ClaimArrays>();
  for (const id of resourceIds) {
    const count = days * CLAIMS_PER_DAY;
    const starts = new Int32Array(count);
    const ends = new Int32Array(count);
    const quantities = new Int32Array(count).fill(1);
    for (let day = 0; day < days; day++) {
      for (let index = 0; index < CLAIMS_PER_DAY; index++) {
        // 07:00 to 19:00 UTC covers 08:00 to 20:00 Berlin on either side of the change, near enough.
        const start = startMinute + day * 1440 + 7 * 60 + Math.floor(random() * 24) * 30;
        starts[day * CLAIMS_PER_DAY + index] = start;
        ends[day * CLAIMS_PER_DAY + index] = start + 30 + Math.floor(random() * 3) * 30;
      }
    }
    claims.set(id, { capacity: 2, startMinutes: starts, endMinutes: ends, quantities });
  }
  return claims;
}

function percentile(sorted: number[], fraction: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * fraction))] as number;
}

const startsAt = (parseInstant(WINDOW_START) as number) / 60_000;
const endsAt = (parseInstant(WINDOW_END) as number) / 60_000;
const now = new Date('2026-03-01T12:00Z');
const results = [];

for (const resourceCount of [20, 50]) {
  for (const selection of ['AUTO', 'OPTIONAL'] as const) {
    const resourceIds = Array.from({ length: resourceCount }, (_, index) => `brs_${index}`);
    const bookable = service(resourceIds, selection);
    const claims = claimsFor(resourceIds, startsAt, 32);
    const run = () => {
      const { durationMinutes } = validateSearch(bookable, { startsAt, endsAt, quantity: 1 });
      return searchSlots({
        service: bookable,
        now,
        startsAt,
        endsAt,
        timeZone: 'America/New_York',
        quantity: 1,
        durationMinutes,
        claims,
      });
    };
    const coldStart = performance.now();
    const first = run();
    const coldMs = performance.now() - coldStart;
    for (let index = 0; index < WARMUP; index++) run();
    const timings: number[] = [];
    const cpuTimings: number[] = [];
    for (let index = 0; index < ITERATIONS; index++) {
      const cpuStart = process.cpuUsage();
      const start = performance.now();
      run();
      timings.push(performance.now() - start);
      const cpu = process.cpuUsage(cpuStart);
      cpuTimings.push((cpu.user + cpu.system) / 1000);
    }
    timings.sort((a, b) => a - b);
    cpuTimings.sort((a, b) => a - b);
    const result = {
      resources: resourceCount,
      selection,
      claims: resourceCount * 31 * CLAIMS_PER_DAY,
      slots: first.slots.length,
      resourceOptions: first.slots.reduce((total, slot) => total + slot.resourceOptions.length, 0),
      truncated: first.truncated,
      firstRunMs: Number(coldMs.toFixed(2)),
      p50Ms: Number(percentile(timings, 0.5).toFixed(2)),
      p95Ms: Number(percentile(timings, 0.95).toFixed(2)),
      maxMs: Number((timings.at(-1) as number).toFixed(2)),
      cpuP50Ms: Number(percentile(cpuTimings, 0.5).toFixed(2)),
      cpuP95Ms: Number(percentile(cpuTimings, 0.95).toFixed(2)),
    };
    results.push(result);
    console.log(JSON.stringify(result));
  }
}

mkdirSync(path.dirname(OUTPUT), { recursive: true });
writeFileSync(
  OUTPUT,
  `${JSON.stringify({ at: new Date().toISOString(), node: process.version, iterations: ITERATIONS, results }, null, 2)}\n`,
);
