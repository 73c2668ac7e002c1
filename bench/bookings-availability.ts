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
 * Then the same scenarios through the database, on each engine of
 * BENCH_ENGINES (PostgreSQL and PGlite, in this process): a fresh database
 * migrated to the latest schema, per resource count an organization with the
 * resources, the two services (AUTO and OPTIONAL pool over all of them) made
 * by `createService`, and the claims (owned by holds expiring next year, so
 * the trigger accepts them; a claim that would exceed capacity 2 is left out)
 * written through the capacity trigger; each search is `searchAvailability`,
 * the route's use case: the service read, the one compact claims read, the
 * pure search.
 *
 * Knobs (environment): BENCH_ITERATIONS (300), BENCH_WARMUP (30),
 * BENCH_DB_ITERATIONS (100), BENCH_ENGINES (postgres,pglite), BENCH_POSTGRES_URL
 * (admin connection), BENCH_AVAILABILITY_DATABASE (commerce_bench_availability,
 * dropped and recreated), BENCH_OUTPUT (results/bookings-availability.json).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import {
  availabilityRulesSchema,
  type BookableService,
  type ClaimArrays,
  createService,
  createServiceInputSchema,
  parseInstant,
  searchAvailability,
  searchSlots,
  validateSearch,
} from '@commerce/bookings';
import { type Database, migrateToLatest, openDatabase } from '@commerce/db';
import { type Kysely, sql } from 'kysely';
import { type Engine, enginesFromEnv, freshBenchDatabase } from './gateway-env.ts';

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

const DB_ITERATIONS = Number(process.env.BENCH_DB_ITERATIONS ?? 100);
const CAPACITY = 2;

/** The seeded claims of `claimsFor`, without those that would take a resource over capacity 2. */
function feasibleClaims(
  claims: Map<string, ClaimArrays>,
): { resourceId: string; start: number; end: number }[] {
  const kept: { resourceId: string; start: number; end: number }[] = [];
  for (const [resourceId, arrays] of claims) {
    const accepted: [number, number][] = [];
    for (let index = 0; index < arrays.startMinutes.length; index++) {
      const start = arrays.startMinutes[index]!;
      const end = arrays.endMinutes[index]!;
      // The peak inside [start, end) is reached at start or at a start of an overlapping claim.
      const points = [start, ...accepted.filter(([s]) => s > start && s < end).map(([s]) => s)];
      const fits = points.every(
        (point) => accepted.filter(([s, e]) => s <= point && point < e).length + 1 <= CAPACITY,
      );
      if (!fits) continue;
      accepted.push([start, end]);
      kept.push({ resourceId, start, end });
    }
  }
  return kept;
}

/** An organization with `count` resources, the AUTO and OPTIONAL services over them, and their claims. */
async function seed(db: Kysely<Database>, count: number) {
  const organizationId = `org_bench_availability_${count}`;
  const at = new Date('2026-03-01T00:00Z');
  await db
    .insertInto('organizations')
    .values({ id: organizationId, slug: `bench-availability-${count}`, name: 'Bench' })
    .execute();
  const resourceIds = Array.from(
    { length: count },
    (_, index) => `brs_bench_${count}_${String(index).padStart(3, '0')}`,
  );
  await db
    .insertInto('booking_resources')
    .values(
      resourceIds.map((id, index) => ({
        organization_id: organizationId,
        id,
        name: `Kayak ${index}`,
        kind: 'EQUIPMENT' as const,
        capacity: CAPACITY,
        user_id: null,
        status: 'ACTIVE' as const,
        archived_at: null,
        created_at: at,
        updated_at: at,
      })),
    )
    .execute();
  const ctx = { organizationId, actor: { userId: 'usr_bench', email: 'bench@demo.test' }, at };
  const serviceIds: Record<'AUTO' | 'OPTIONAL', string> = { AUTO: '', OPTIONAL: '' };
  for (const selection of ['AUTO', 'OPTIONAL'] as const) {
    const open = [{ start: '08:00', end: '20:00' }];
    const created = await createService(
      db,
      ctx,
      createServiceInputSchema.parse({
        slug: `kayaks-${selection.toLowerCase()}`,
        name: 'Kayaks',
        status: 'ACTIVE',
        periodMode: 'FIXED_DURATION',
        timezone: 'Europe/Berlin',
        durations: { choicesMinutes: [60], startIntervalMinutes: 30 },
        availability: {
          weeklyHours: { MON: open, TUE: open, WED: open, THU: open, FRI: open, SAT: open, SUN: open },
          bufferAfterMinutes: 15,
          maxAdvanceDays: 730,
        },
        partySize: { min: 1, max: 4 },
        requirements: [{ name: 'Kayak', resourceIds, units: { mode: 'PER_BOOKING', count: 1 }, selection }],
        pricing: { basis: 'PER_PERIOD', amountInCents: 2500, period: 'HOUR' },
        checkout: { paymentMode: 'DEPOSIT', deposit: { percent: 20 } },
      }),
      { currency: 'EUR' },
    );
    serviceIds[selection] = created.id;
  }
  const claims = feasibleClaims(claimsFor(resourceIds, startsAt, 32));
  const expiresAt = new Date('2027-06-01T00:00Z');
  for (let offset = 0; offset < claims.length; offset += 500) {
    const batch = claims.slice(offset, offset + 500);
    const holdIds = batch.map((_, index) => `hld_bench_${count}_${offset + index}`);
    await db
      .insertInto('booking_holds')
      .values(
        batch.map((claim, index) => ({
          organization_id: organizationId,
          id: holdIds[index]!,
          service_id: serviceIds.AUTO,
          status: 'ACTIVE' as const,
          starts_at: new Date(claim.start * 60_000),
          ends_at: new Date(claim.end * 60_000),
          quantity: 1,
          customer_email: 'bench@example.com',
          customer_id: null,
          key_hash: holdIds[index]!,
          client_key: 'bench',
          snapshot: '{}',
          expires_at: expiresAt,
          created_at: at,
          updated_at: at,
        })),
      )
      .execute();
    await db.transaction().execute(async (trx) => {
      await sql`select set_config('bookings.now', ${at.toISOString()}, true)`.execute(trx);
      await trx
        .insertInto('booking_capacity_claims')
        .values(
          batch.map((claim, index) => ({
            organization_id: organizationId,
            id: `bcl_bench_${count}_${offset + index}`,
            resource_id: claim.resourceId,
            quantity: 1,
            during: `[${new Date(claim.start * 60_000).toISOString()},${new Date(claim.end * 60_000).toISOString()})`,
            expires_at: expiresAt,
            hold_id: holdIds[index]!,
          })),
        )
        .execute();
    });
  }
  // Statistics as autovacuum would have them on a live database, not the empty tables' of migration.
  await sql`analyze booking_capacity_claims`.execute(db);
  await sql`analyze booking_resources`.execute(db);
  return { organizationId, serviceIds, claims: claims.length };
}

async function benchDatabase(engine: Engine) {
  const { connection, dispose } = await freshBenchDatabase(engine, {
    adminUrl: process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres',
    database: process.env.BENCH_AVAILABILITY_DATABASE ?? 'commerce_bench_availability',
    label: 'availability',
  });
  const handle = await openDatabase({ ...connection, poolSize: 2 });
  const rows = [];
  try {
    await migrateToLatest(handle.db, { schema: handle.schema });
    for (const resourceCount of [20, 50]) {
      const seeded = await seed(handle.db, resourceCount);
      for (const selection of ['AUTO', 'OPTIONAL'] as const) {
        const search = () =>
          searchAvailability(
            handle.db,
            { organizationId: seeded.organizationId, at: now },
            {
              request: {
                serviceId: seeded.serviceIds[selection],
                startsAt: WINDOW_START,
                endsAt: WINDOW_END,
                timezone: 'America/New_York',
                quantity: 1,
              },
              currency: 'EUR',
            },
          );
        const first = await search();
        for (let index = 0; index < Math.min(WARMUP, 10); index++) await search();
        const timings: number[] = [];
        for (let index = 0; index < DB_ITERATIONS; index++) {
          const start = performance.now();
          await search();
          timings.push(performance.now() - start);
        }
        timings.sort((a, b) => a - b);
        const row = {
          engine,
          resources: resourceCount,
          selection,
          claims: seeded.claims,
          slots: first.slots.length,
          truncated: first.truncated,
          p50Ms: Number(percentile(timings, 0.5).toFixed(2)),
          p95Ms: Number(percentile(timings, 0.95).toFixed(2)),
          maxMs: Number((timings.at(-1) as number).toFixed(2)),
        };
        rows.push(row);
        console.log(JSON.stringify(row));
      }
    }
  } finally {
    await handle.close();
    await dispose();
  }
  return rows;
}

const database = [];
for (const engine of enginesFromEnv()) database.push(...(await benchDatabase(engine)));

mkdirSync(path.dirname(OUTPUT), { recursive: true });
writeFileSync(
  OUTPUT,
  `${JSON.stringify(
    {
      at: new Date().toISOString(),
      node: process.version,
      iterations: ITERATIONS,
      results,
      databaseIterations: DB_ITERATIONS,
      database,
    },
    null,
    2,
  )}\n`,
);
process.exit(0);
