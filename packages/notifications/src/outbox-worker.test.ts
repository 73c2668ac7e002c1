import { ManualClock } from '@commerce/core';
import type { Database, DatabaseHandle } from '@commerce/db';
import { ColumnNode, type Kysely, type KyselyPlugin, type QueryId, type UpdateQueryNode } from 'kysely';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  createNotificationsTestDatabase,
  deferred,
  enqueueSignInEmail,
  ORG_ID,
  readOutboxRow,
  recordingLogger,
  recordingTransport,
} from '../test/factories.ts';
import { PermanentDeliveryError, TransientDeliveryError } from './errors.ts';
import { createOutboxWorker, retryDelayMs } from './outbox-worker.ts';

let handle: DatabaseHandle;
let clock: ManualClock;

beforeAll(async () => {
  handle = await createNotificationsTestDatabase();
});

afterAll(async () => {
  await handle.close();
});

beforeEach(async () => {
  // Each test starts from an empty outbox, a day after the last, so earlier rows never fall due again.
  await handle.db.deleteFrom('outbox').execute();
  clock = new ManualClock('2026-03-01T10:00:00.000Z');
});

const noJitter = () => 0;

describe('retryDelayMs', () => {
  it('doubles from the base, caps at the maximum and only ever shortens by jitter', () => {
    const options = { baseBackoffMs: 2000, maxBackoffMs: 10_000 };
    expect([1, 2, 3, 4, 5, 30].map((attempts) => retryDelayMs(attempts, options, noJitter))).toEqual([
      2000, 4000, 8000, 10_000, 10_000, 10_000,
    ]);
    expect(retryDelayMs(2, options, () => 0.999)).toBeGreaterThanOrEqual(3200);
    expect(retryDelayMs(2, options, () => 0.999)).toBeLessThan(4000);
  });
});

describe('outbox worker', () => {
  it('delivers a due email, marks it DONE and drops its body but keeps its metadata', async () => {
    const id = await enqueueSignInEmail(handle.db, clock);
    const transport = recordingTransport();
    const worker = createOutboxWorker({ db: handle.db, transport, clock });
    clock.advance(1500);

    expect(await worker.runOnce()).toEqual({ claimed: 1, delivered: 1, retried: 0, failed: 0, pruned: 0 });

    expect(transport.sent).toHaveLength(1);
    expect(transport.sent[0]?.message).toMatchObject({ subject: 'Your sign-in code' });
    expect(transport.sent[0]?.message.text).toMatch(/^Your code is \d{6}$/);
    expect(transport.sent[0]?.context).toEqual({
      organizationId: ORG_ID,
      outboxId: id,
      templateType: 'customer.sign_in_code',
    });
    const row = await readOutboxRow(handle.db, id);
    expect(row).toMatchObject({ status: 'DONE', attempts: 1, payload: null, locked_until: null });
    expect(row.delivered_at?.getTime()).toBe(clock.now().getTime());
    expect(row.metadata).toMatchObject({
      templateType: 'customer.sign_in_code',
      recipientDomain: 'example.com',
    });

    expect(await worker.runOnce()).toMatchObject({ claimed: 0 });
    expect(transport.sent).toHaveLength(1);
  });

  it('retries a failing delivery later each time, then marks it FAILED after maxAttempts without its body', async () => {
    const id = await enqueueSignInEmail(handle.db, clock, { to: 'alice@example.com' });
    const transport = recordingTransport(async () => {
      // Provider errors may quote the recipient; none of this may reach the row or the logs.
      throw new Error('mailbox alice@example.com unavailable');
    });
    const logger = recordingLogger();
    const worker = createOutboxWorker({
      db: handle.db,
      transport,
      clock,
      logger,
      maxAttempts: 4,
      baseBackoffMs: 1000,
      random: noJitter,
    });

    const delays: number[] = [];
    for (let attempt = 1; attempt <= 3; attempt++) {
      expect(await worker.runOnce()).toMatchObject({ claimed: 1, retried: 1 });
      const row = await readOutboxRow(handle.db, id);
      expect(row).toMatchObject({
        status: 'PENDING',
        attempts: attempt,
        locked_until: null,
        last_error: 'Error',
      });
      expect(row.payload).not.toBeNull();
      delays.push(row.next_attempt_at.getTime() - clock.now().getTime());

      // Not due a millisecond early, due on time.
      clock.set(new Date(row.next_attempt_at.getTime() - 1));
      expect(await worker.runOnce()).toMatchObject({ claimed: 0 });
      clock.advance(1);
    }
    expect(delays).toEqual([1000, 2000, 4000]);

    expect(await worker.runOnce()).toMatchObject({ claimed: 1, failed: 1 });
    const row = await readOutboxRow(handle.db, id);
    expect(row).toMatchObject({ status: 'FAILED', attempts: 4, payload: null, locked_until: null });
    expect(row.delivered_at?.getTime()).toBe(clock.now().getTime());
    expect(transport.sent).toHaveLength(4);

    clock.advance(86_400_000);
    expect(await worker.runOnce()).toMatchObject({ claimed: 0 });
    expect(logger.lines.map((line) => line.level)).toEqual(['warn', 'warn', 'warn', 'error']);
    expect(logger.text()).not.toContain('alice');
    expect(logger.text()).not.toContain('Your code');
  });

  it('marks a permanently refused email FAILED at once', async () => {
    const id = await enqueueSignInEmail(handle.db, clock);
    const transport = recordingTransport(async () => {
      throw new PermanentDeliveryError('SMTP EENVELOPE 550 at RCPT TO');
    });
    const worker = createOutboxWorker({ db: handle.db, transport, clock });

    expect(await worker.runOnce()).toMatchObject({ claimed: 1, delivered: 0, retried: 0, failed: 1 });
    const row = await readOutboxRow(handle.db, id);
    expect(row).toMatchObject({
      status: 'FAILED',
      attempts: 1,
      payload: null,
      last_error: 'SMTP EENVELOPE 550 at RCPT TO',
    });
  });

  it('redelivers a claim whose worker crashed mid-delivery once its lease expires, and not before', async () => {
    const id = await enqueueSignInEmail(handle.db, clock);
    const hang = deferred();
    const crashedTransport = recordingTransport(() => hang.promise);
    const crashed = createOutboxWorker({
      db: handle.db,
      transport: crashedTransport,
      clock,
      leaseMs: 60_000,
    });
    const crashedRun = crashed.runOnce();
    await waitUntil(() => crashedTransport.sent.length === 1);

    const claimedRow = await readOutboxRow(handle.db, id);
    expect(claimedRow).toMatchObject({ status: 'PROCESSING', attempts: 1 });
    expect(claimedRow.locked_until?.getTime()).toBe(clock.now().getTime() + 60_000);

    const transport = recordingTransport();
    const rescuer = createOutboxWorker({ db: handle.db, transport, clock, leaseMs: 60_000 });
    clock.advance(60_000);
    expect(await rescuer.runOnce()).toMatchObject({ claimed: 0 });
    expect(transport.sent).toHaveLength(0);

    clock.advance(1);
    expect(await rescuer.runOnce()).toMatchObject({ claimed: 1, delivered: 1 });
    expect(transport.callsById.get(id)).toBe(1);
    expect(await readOutboxRow(handle.db, id)).toMatchObject({ status: 'DONE', attempts: 2, payload: null });

    // Let the "crashed" delivery end so the test leaves nothing running; it changes nothing.
    hang.reject(new Error('process died'));
    expect(await crashedRun).toMatchObject({ claimed: 1, delivered: 0, retried: 0, failed: 0 });
    expect(await readOutboxRow(handle.db, id)).toMatchObject({ status: 'DONE', attempts: 2 });
  });

  it('lets no stale worker overwrite a newer claim, whether it finishes with success or failure', async () => {
    const first = await enqueueSignInEmail(handle.db, clock);
    const second = await enqueueSignInEmail(handle.db, clock);
    const staleOutcomes = new Map([
      [first, deferred()],
      [second, deferred()],
    ]);
    const staleTransport = recordingTransport((_, context) => staleOutcomes.get(context.outboxId)!.promise);
    const stale = createOutboxWorker({ db: handle.db, transport: staleTransport, clock, leaseMs: 30_000 });
    const staleRun = stale.runOnce();
    await waitUntil(() => staleTransport.sent.length === 2);

    // The lease runs out; a second worker claims both rows and is itself still delivering.
    clock.advance(30_001);
    const freshOutcomes = new Map([
      [first, deferred()],
      [second, deferred()],
    ]);
    const freshTransport = recordingTransport((_, context) => freshOutcomes.get(context.outboxId)!.promise);
    const fresh = createOutboxWorker({ db: handle.db, transport: freshTransport, clock, leaseMs: 30_000 });
    const freshRun = fresh.runOnce();
    await waitUntil(() => freshTransport.sent.length === 2);

    staleOutcomes.get(first)!.resolve();
    staleOutcomes.get(second)!.reject(new TransientDeliveryError('SMTP ETIMEDOUT at CONN'));
    expect(await staleRun).toMatchObject({ claimed: 2, delivered: 0, retried: 0, failed: 0 });
    for (const id of [first, second]) {
      const row = await readOutboxRow(handle.db, id);
      expect(row).toMatchObject({ status: 'PROCESSING', attempts: 2, last_error: null });
      expect(row.payload).not.toBeNull();
    }

    freshOutcomes.get(first)!.resolve();
    freshOutcomes.get(second)!.resolve();
    expect(await freshRun).toMatchObject({ claimed: 2, delivered: 2 });
    for (const id of [first, second]) {
      expect(await readOutboxRow(handle.db, id)).toMatchObject({
        status: 'DONE',
        attempts: 2,
        payload: null,
      });
    }
  });

  it('fails a row whose final allowed attempt crashed, without sending it again', async () => {
    const id = await enqueueSignInEmail(handle.db, clock);
    const hang = deferred();
    const crashedTransport = recordingTransport(() => hang.promise);
    const crashed = createOutboxWorker({ db: handle.db, transport: crashedTransport, clock, maxAttempts: 1 });
    const crashedRun = crashed.runOnce();
    await waitUntil(() => crashedTransport.sent.length === 1);

    clock.advance(60_001);
    const transport = recordingTransport();
    const worker = createOutboxWorker({ db: handle.db, transport, clock, maxAttempts: 1 });
    expect(await worker.runOnce()).toMatchObject({ claimed: 1, failed: 1 });
    expect(transport.sent).toHaveLength(0);
    expect(await readOutboxRow(handle.db, id)).toMatchObject({
      status: 'FAILED',
      attempts: 2,
      payload: null,
      last_error: 'lease expired on the final attempt',
    });

    hang.resolve();
    await crashedRun;
    expect((await readOutboxRow(handle.db, id)).status).toBe('FAILED');
  });

  it('abandons a send that outlives deliveryTimeoutMs as a transient failure', async () => {
    const id = await enqueueSignInEmail(handle.db, clock);
    const transport = recordingTransport(() => new Promise<void>(() => {}));
    const worker = createOutboxWorker({ db: handle.db, transport, clock, deliveryTimeoutMs: 10 });

    expect(await worker.runOnce()).toMatchObject({ claimed: 1, retried: 1 });
    expect(await readOutboxRow(handle.db, id)).toMatchObject({
      status: 'PENDING',
      last_error: 'delivery timed out after 10 ms',
    });
  });

  it('prunes finished rows past retention at most once per interval and keeps everything else', async () => {
    const transport = recordingTransport(async (message) => {
      if (message.to.startsWith('bounce')) throw new PermanentDeliveryError('SMTP EENVELOPE 550 at RCPT TO');
    });
    const worker = createOutboxWorker({ db: handle.db, transport, clock, retentionDays: 7 });
    const oldDone = await enqueueSignInEmail(handle.db, clock);
    const oldFailed = await enqueueSignInEmail(handle.db, clock, { to: 'bounce@example.com' });
    expect(await worker.runOnce()).toMatchObject({ delivered: 1, failed: 1, pruned: 0 });

    clock.advance(3 * 86_400_000);
    const recentDone = await enqueueSignInEmail(handle.db, clock);
    expect(await worker.runOnce()).toMatchObject({ delivered: 1, pruned: 0 });
    // Old but never delivered: pending rows are not the prune's to remove.
    clock.advance(1);
    const stillPending = await enqueueSignInEmail(handle.db, clock);
    await handle.db
      .updateTable('outbox')
      .set({ next_attempt_at: new Date(clock.now().getTime() + 30 * 86_400_000) })
      .where('id', '=', stillPending)
      .execute();

    clock.advance(4 * 86_400_000 + 1);
    expect(await worker.runOnce()).toMatchObject({ claimed: 0, pruned: 2 });
    const remaining = await handle.db.selectFrom('outbox').select('id').orderBy('id').execute();
    expect(remaining.map((row) => row.id).sort()).toEqual([recentDone, stillPending].sort());
    expect(remaining.map((row) => row.id)).not.toContain(oldDone);
    expect(remaining.map((row) => row.id)).not.toContain(oldFailed);

    // A minute must pass between prunes, however often the worker runs.
    await handle.db
      .updateTable('outbox')
      .set({ delivered_at: new Date(clock.now().getTime() - 8 * 86_400_000) })
      .where('id', '=', recentDone)
      .execute();
    clock.advance(59_999);
    expect(await worker.runOnce()).toMatchObject({ pruned: 0 });
    clock.advance(1);
    expect(await worker.runOnce()).toMatchObject({ pruned: 1 });
  });

  it('delivers each of 30 rows exactly once with three workers running at the same time', async () => {
    const ids: string[] = [];
    for (let index = 0; index < 30; index++) ids.push(await enqueueSignInEmail(handle.db, clock));
    const transport = recordingTransport(async () => {
      // Yield so the workers' claims and deliveries interleave.
      await new Promise((resolve) => setImmediate(resolve));
    });
    const workers = [1, 2, 3].map(() =>
      createOutboxWorker({ db: handle.db, transport, clock, batchSize: 4 }),
    );

    const drain = async (worker: (typeof workers)[number]) => {
      let delivered = 0;
      for (;;) {
        const result = await worker.runOnce();
        delivered += result.delivered;
        if (result.claimed === 0) return delivered;
      }
    };
    const deliveredPerWorker = await Promise.all(workers.map(drain));

    expect(deliveredPerWorker.reduce((sum, count) => sum + count, 0)).toBe(30);
    // The work was shared, so the workers really did claim side by side.
    expect(deliveredPerWorker.filter((count) => count > 0).length).toBeGreaterThanOrEqual(2);
    expect(transport.sent).toHaveLength(30);
    expect(ids.map((id) => transport.callsById.get(id))).toEqual(ids.map(() => 1));
    const statuses = await handle.db.selectFrom('outbox').select(['status', 'attempts']).execute();
    expect(statuses).toHaveLength(30);
    expect(statuses.every((row) => row.status === 'DONE' && row.attempts === 1)).toBe(true);
  });

  it('polls after start(), drains a backlog without waiting, and stop() waits for the run in flight', async () => {
    const ids: string[] = [];
    for (let index = 0; index < 5; index++) ids.push(await enqueueSignInEmail(handle.db, clock));
    const lastSend = deferred();
    const allSent = deferred();
    const transport = recordingTransport(async () => {
      if (transport.sent.length === 5) {
        allSent.resolve();
        await lastSend.promise;
      }
    });
    // An hour between polls: only the immediate follow-up after a full batch can drain the backlog.
    const worker = createOutboxWorker({
      db: handle.db,
      transport,
      clock,
      batchSize: 2,
      pollIntervalMs: 3_600_000,
    });

    worker.start();
    await allSent.promise;
    const stopped = worker.stop();
    lastSend.resolve();
    await stopped;

    for (const id of ids) expect((await readOutboxRow(handle.db, id)).status).toBe('DONE');
    expect(transport.sent).toHaveLength(5);
  });

  it('runOnce delivers a batch with at most `concurrency` sends at once', async () => {
    for (let index = 0; index < 6; index++) await enqueueSignInEmail(handle.db, clock);
    const sends = inFlightCounter();
    const transport = recordingTransport(() =>
      sends.around(() => new Promise((resolve) => setImmediate(resolve))),
    );
    const worker = createOutboxWorker({ db: handle.db, transport, clock, batchSize: 6, concurrency: 2 });

    expect(await worker.runOnce()).toMatchObject({ claimed: 6, delivered: 6 });
    expect(sends.max).toBe(2);
  });

  it('after start(), keeps `concurrency` sends in flight and claims more while a slow send is still out', async () => {
    const ids: string[] = [];
    for (let index = 0; index < 5; index++) ids.push(await enqueueSignInEmail(handle.db, clock));
    const sends = inFlightCounter();
    const releaseFirst = deferred();
    const othersSent = deferred();
    const transport = recordingTransport(() =>
      sends.around(async () => {
        if (transport.sent.length === 1) return releaseFirst.promise;
        if (transport.sent.length === 5) othersSent.resolve();
        await new Promise((resolve) => setImmediate(resolve));
      }),
    );
    // An hour between polls: only claims made while rows are in flight can deliver the other four.
    const worker = createOutboxWorker({
      db: handle.db,
      transport,
      clock,
      concurrency: 2,
      pollIntervalMs: 3_600_000,
    });

    worker.start();
    // The first send is held: a worker that waited for its whole batch would never send the third row.
    await othersSent.promise;
    expect(sends.max).toBe(2);
    const stopped = worker.stop();
    releaseFirst.resolve();
    await stopped;

    for (const id of ids) expect((await readOutboxRow(handle.db, id)).status).toBe('DONE');
    expect(ids.map((id) => transport.callsById.get(id))).toEqual([1, 1, 1, 1, 1]);
  });

  it('after start(), prunes while a backlog keeps every claim full', async () => {
    const old = await enqueueSignInEmail(handle.db, clock);
    await handle.db
      .updateTable('outbox')
      .set({ status: 'DONE', payload: null, delivered_at: new Date(clock.now().getTime() - 8 * 86_400_000) })
      .where('id', '=', old)
      .execute();
    for (let index = 0; index < 3; index++) await enqueueSignInEmail(handle.db, clock);
    const secondSendReached = deferred();
    const releaseSecond = deferred();
    const transport = recordingTransport(async () => {
      if (transport.sent.length === 2) {
        secondSendReached.resolve();
        await releaseSecond.promise;
      }
    });
    // One send at a time: every claim takes one row and comes back full until the queue is empty.
    const worker = createOutboxWorker({
      db: handle.db,
      transport,
      clock,
      concurrency: 1,
      retentionDays: 7,
      pollIntervalMs: 3_600_000,
    });

    worker.start();
    await secondSendReached.promise;
    const oldRows = await handle.db.selectFrom('outbox').select('id').where('id', '=', old).execute();
    releaseSecond.resolve();
    await worker.stop();

    // Pruned before the second of three claims had finished: no claim had come back short yet.
    expect(oldRows).toEqual([]);
  });

  it('refuses a concurrency that is not a positive integer', () => {
    const transport = recordingTransport();
    expect(() => createOutboxWorker({ db: handle.db, transport, concurrency: 0 })).toThrow(/concurrency/);
  });
});

describe('outbox leases', () => {
  // Only the heartbeat's interval is faked: the clock is the ManualClock, and the database's own timers stay real.
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('claims for 15 s by default, and a worker that died loses its rows 15 s after its last renewal', async () => {
    const id = await enqueueSignInEmail(handle.db, clock);
    const doomed = workerProcess(handle.db);
    const hang = deferred();
    const doomedTransport = recordingTransport(() => hang.promise);
    const crashed = createOutboxWorker({ db: doomed.db, transport: doomedTransport, clock });
    const crashedRun = crashed.runOnce();
    await waitUntil(() => doomedTransport.sent.length === 1);
    expect((await readOutboxRow(handle.db, id)).locked_until?.getTime()).toBe(clock.now().getTime() + 15_000);

    // Alive for 8 s, within its send's 10 s timeout: a renewal every 5 s of its timer.
    for (let tick = 0; tick < 2; tick++) await heartbeatTick(doomed, 4000, 5000);
    expect((await readOutboxRow(handle.db, id)).locked_until?.getTime()).toBe(clock.now().getTime() + 15_000);

    doomed.kill();
    const transport = recordingTransport();
    const rescuer = createOutboxWorker({ db: handle.db, transport, clock });
    clock.advance(15_000);
    // The dead worker's timers firing changes nothing: it can no longer reach the database.
    await vi.advanceTimersByTimeAsync(15_000);
    expect(await rescuer.runOnce()).toMatchObject({ claimed: 0 });
    clock.advance(1);
    expect(await rescuer.runOnce()).toMatchObject({ claimed: 1, delivered: 1 });
    // At least once: the dead worker's send may or may not have reached the provider; the row is sent again.
    expect(transport.callsById.get(id)).toBe(1);
    expect(await readOutboxRow(handle.db, id)).toMatchObject({ status: 'DONE', attempts: 2, payload: null });

    hang.resolve();
    expect(await crashedRun).toMatchObject({ claimed: 1, delivered: 0 });
    expect(await readOutboxRow(handle.db, id)).toMatchObject({ status: 'DONE', attempts: 2 });
  });

  it('renews all of a live worker’s claims in one statement per tick, so rows waiting longer than the lease for a send slot keep their claims and are sent', async () => {
    const ids = [
      await enqueueSignInEmail(handle.db, clock),
      await enqueueSignInEmail(handle.db, clock),
      await enqueueSignInEmail(handle.db, clock),
    ];
    const live = workerProcess(handle.db);
    const sends = [deferred(), deferred(), deferred()];
    let started = 0;
    const slowTransport = recordingTransport(() => sends[started++]!.promise);
    const logger = recordingLogger();
    // One send at a time, each lasting 10 s, under its 12 s timeout: the last row waits 20 s for its slot.
    const worker = createOutboxWorker({
      db: live.db,
      transport: slowTransport,
      clock,
      logger,
      concurrency: 1,
      batchSize: 3,
      deliveryTimeoutMs: 12_000,
    });
    const run = worker.runOnce();

    const otherTransport = recordingTransport();
    const other = createOutboxWorker({ db: handle.db, transport: otherTransport, clock });
    for (let send = 0; send < 3; send++) {
      await waitUntil(() => slowTransport.sent.length === send + 1);
      for (let tick = 0; tick < 2; tick++) {
        const updatesBefore = live.updates;
        // The rows not yet finished, sending or waiting, in one statement.
        expect(await heartbeatTick(live, 5000)).toBe(3 - send);
        expect(live.updates - updatesBefore).toBe(1);
        expect(await other.runOnce()).toMatchObject({ claimed: 0 });
      }
      sends[send]!.resolve();
    }
    expect(await run).toMatchObject({ claimed: 3, delivered: 3 });
    expect(slowTransport.sent.map((sent) => sent.context.outboxId)).toEqual(ids);
    expect(otherTransport.sent).toHaveLength(0);
    expect(logger.lines.filter((line) => line.level !== 'info')).toEqual([]);
    for (const id of ids) {
      expect(await readOutboxRow(handle.db, id)).toMatchObject({
        status: 'DONE',
        attempts: 1,
        locked_until: null,
      });
    }
    // Nothing is renewed once the deliveries ended.
    expect(vi.getTimerCount()).toBe(0);
    const updatesAfter = live.updates;
    await vi.advanceTimersByTimeAsync(20_000);
    expect(live.updates).toBe(updatesAfter);
  });

  it('does not send a row whose renewals fail once its confirmed lease is shorter than a send, and leaves it to its lease', async () => {
    const claimedAt = clock.now().getTime();
    const first = await enqueueSignInEmail(handle.db, clock);
    const second = await enqueueSignInEmail(handle.db, clock, { to: 'bob@example.com' });
    const live = workerProcess(handle.db);
    const firstSend = deferred();
    const transport = recordingTransport((_, context) =>
      context.outboxId === first ? firstSend.promise : Promise.resolve(),
    );
    const logger = recordingLogger();
    // The defaults: a 15 s lease renewed every 5 s, a 10 s send timeout. One send at a time.
    const worker = createOutboxWorker({
      db: live.db,
      transport,
      clock,
      logger,
      concurrency: 1,
      batchSize: 2,
    });
    const run = worker.runOnce();
    await waitUntil(() => transport.sent.length === 1);
    expect(transport.sent[0]?.context.outboxId).toBe(first);

    // The database stops taking renewals (a failover, a saturated pool): the tick at 5 s fails.
    live.failRenewals = true;
    clock.advance(5000);
    await vi.advanceTimersByTimeAsync(5000);
    await waitUntil(() => live.failedRenewals === 1);
    // The first send ends. The second row has 10 s of confirmed lease, less than its 10 s timeout and margin;
    // renewing it now fails too, so it is not sent.
    firstSend.resolve();
    expect(await run).toMatchObject({ claimed: 2, delivered: 1, retried: 0, failed: 0 });
    expect(live.failedRenewals).toBe(2);
    expect(transport.callsById.get(second)).toBeUndefined();
    const left = await readOutboxRow(handle.db, second);
    expect(left).toMatchObject({ status: 'PROCESSING', attempts: 1 });
    expect(left.locked_until?.getTime()).toBe(claimedAt + 15_000);
    expect(logger.lines).toContainEqual({
      level: 'warn',
      obj: expect.objectContaining({ outboxId: second, attempts: 1 }),
      msg: 'email not sent: its lease could not be confirmed for a whole send',
    });
    expect(logger.text()).not.toMatch(/bob@|Your code is/);

    // At least once: a later claim sends it when its lease has lapsed, and not before.
    const rescuerTransport = recordingTransport();
    const rescuer = createOutboxWorker({ db: handle.db, transport: rescuerTransport, clock });
    expect(await rescuer.runOnce()).toMatchObject({ claimed: 0 });
    clock.advance(10_001);
    expect(await rescuer.runOnce()).toMatchObject({ claimed: 1, delivered: 1 });
    expect(rescuerTransport.callsById.get(second)).toBe(1);
    expect(await readOutboxRow(handle.db, second)).toMatchObject({ status: 'DONE', attempts: 2 });
  });

  it('does not send a row whose renewal returns nothing because another claim took it', async () => {
    const first = await enqueueSignInEmail(handle.db, clock);
    const second = await enqueueSignInEmail(handle.db, clock);
    const stalled = workerProcess(handle.db);
    const firstSend = deferred();
    const transport = recordingTransport((_, context) =>
      context.outboxId === first ? firstSend.promise : Promise.resolve(),
    );
    const logger = recordingLogger();
    const worker = createOutboxWorker({
      db: stalled.db,
      transport,
      clock,
      logger,
      concurrency: 1,
      batchSize: 2,
    });
    const run = worker.runOnce();
    await waitUntil(() => transport.sent.length === 1);

    // Its heartbeat does not run for longer than the lease (a stalled process): another worker claims both rows.
    clock.advance(15_001);
    const otherSends = deferred();
    const otherTransport = recordingTransport(() => otherSends.promise);
    const other = createOutboxWorker({ db: handle.db, transport: otherTransport, clock });
    const otherRun = other.runOnce();
    await waitUntil(() => otherTransport.sent.length === 2);

    // The first send ends; renewing the second row before its send returns nothing, so it is not sent twice.
    firstSend.resolve();
    expect(await run).toMatchObject({ claimed: 2, delivered: 0 });
    expect(transport.callsById.get(second)).toBeUndefined();
    expect(logger.lines).toContainEqual({
      level: 'warn',
      obj: expect.objectContaining({ outboxId: second, attempts: 1 }),
      msg: 'email not sent: its lease could not be confirmed for a whole send',
    });

    otherSends.resolve();
    expect(await otherRun).toMatchObject({ claimed: 2, delivered: 2 });
    expect(otherTransport.callsById.get(second)).toBe(1);
    expect(await readOutboxRow(handle.db, second)).toMatchObject({ status: 'DONE', attempts: 2 });
  });

  it('never renews a row whose lease passed to another claim', async () => {
    const id = await enqueueSignInEmail(handle.db, clock);
    const stalled = workerProcess(handle.db);
    const staleSend = deferred();
    const staleTransport = recordingTransport(() => staleSend.promise);
    const stale = createOutboxWorker({ db: stalled.db, transport: staleTransport, clock, leaseMs: 15_000 });
    const staleRun = stale.runOnce();
    await waitUntil(() => staleTransport.sent.length === 1);

    // Its heartbeat does not run for longer than the lease (a stalled process): another worker claims the row.
    clock.advance(15_001);
    const freshSend = deferred();
    const freshTransport = recordingTransport(() => freshSend.promise);
    const live = workerProcess(handle.db);
    const fresh = createOutboxWorker({
      db: live.db,
      transport: freshTransport,
      clock,
      leaseMs: 10_000,
      deliveryTimeoutMs: 5000,
    });
    const freshRun = fresh.runOnce();
    await waitUntil(() => freshTransport.sent.length === 1);
    expect(await readOutboxRow(handle.db, id)).toMatchObject({ status: 'PROCESSING', attempts: 2 });

    // Both heartbeats run: the fresh claim's at 3.3 s, the stale one's at 5 s, which renews nothing.
    expect(await heartbeatTick(stalled, 5000, 5000, [live])).toBe(0);
    expect(live.lastUpdatedRows).toBe(1);
    const row = await readOutboxRow(handle.db, id);
    expect(row.locked_until?.getTime()).toBe(clock.now().getTime() + 10_000);

    staleSend.resolve();
    expect(await staleRun).toMatchObject({ claimed: 1, delivered: 0 });
    freshSend.resolve();
    expect(await freshRun).toMatchObject({ claimed: 1, delivered: 1 });
    expect(await readOutboxRow(handle.db, id)).toMatchObject({ status: 'DONE', attempts: 2 });
  });

  it('renews while start() delivers and stops renewing once stop() has waited for the sends', async () => {
    const id = await enqueueSignInEmail(handle.db, clock);
    const live = workerProcess(handle.db);
    const release = deferred();
    const transport = recordingTransport(() => release.promise);
    const worker = createOutboxWorker({ db: live.db, transport, clock, pollIntervalMs: 3_600_000 });
    worker.start();
    await waitUntil(() => transport.sent.length === 1);
    expect(await heartbeatTick(live, 4000, 5000)).toBe(1);

    const stopped = worker.stop();
    expect(await heartbeatTick(live, 4000, 5000)).toBe(1);
    release.resolve();
    await stopped;
    expect(await readOutboxRow(handle.db, id)).toMatchObject({ status: 'DONE', attempts: 1 });
    expect(vi.getTimerCount()).toBe(0);
  });

  it('refuses a heartbeat that is not shorter than the lease', () => {
    const transport = recordingTransport();
    expect(() => createOutboxWorker({ db: handle.db, transport, leaseMs: 1000, heartbeatMs: 1000 })).toThrow(
      /shorter than leaseMs/,
    );
  });

  it('refuses a delivery timeout that is not shorter than the lease', () => {
    const transport = recordingTransport();
    expect(() => createOutboxWorker({ db: handle.db, transport, deliveryTimeoutMs: 15_000 })).toThrow(
      'deliveryTimeoutMs (15000 ms) must be shorter than leaseMs (15000 ms)',
    );
    expect(() =>
      createOutboxWorker({ db: handle.db, transport, leaseMs: 60_000, deliveryTimeoutMs: 30_000 }),
    ).not.toThrow();
  });
});

interface WorkerProcess {
  /** The database as this worker process sees it. */
  db: Kysely<Database>;
  /** UPDATE statements it has run. */
  updates: number;
  /** Rows changed by its last UPDATE. */
  lastUpdatedRows: number;
  /** While true, its lease renewals fail as if the database were unreachable; other statements run. */
  failRenewals: boolean;
  /** Renewals failed that way. */
  failedRenewals: number;
  /** The process dies: every query it makes from now on fails. */
  kill(): void;
}

function workerProcess(db: Kysely<Database>): WorkerProcess {
  const updateIds = new Set<QueryId>();
  let dead = false;
  const plugin: KyselyPlugin = {
    transformQuery(args) {
      if (dead) throw new Error('the process is dead');
      if (args.node.kind === 'UpdateQueryNode') {
        if (seen.failRenewals && isRenewal(args.node)) {
          seen.failedRenewals += 1;
          throw new Error('Connection terminated unexpectedly');
        }
        updateIds.add(args.queryId);
      }
      return args.node;
    },
    async transformResult(args) {
      if (updateIds.delete(args.queryId)) {
        seen.updates += 1;
        seen.lastUpdatedRows = Number(args.result.numAffectedRows ?? 0n);
      }
      return args.result;
    },
  };
  const seen: WorkerProcess = {
    db: db.withPlugin(plugin),
    updates: 0,
    lastUpdatedRows: 0,
    failRenewals: false,
    failedRenewals: 0,
    kill() {
      dead = true;
    },
  };
  return seen;
}

/** A lease renewal: an UPDATE of `locked_until` alone (a claim or an outcome sets `status` too). */
function isRenewal(node: UpdateQueryNode): boolean {
  const columns = (node.updates ?? []).map((update) =>
    ColumnNode.is(update.column) ? update.column.column.name : undefined,
  );
  return columns.length === 1 && columns[0] === 'locked_until';
}

/**
 * Moves the clock by `clockMs` and the heartbeats' timers by `timersMs`, then
 * waits until `worker` and each of `alsoWaitFor` ran one more UPDATE (their
 * renewal); resolves to the rows `worker` renewed.
 */
async function heartbeatTick(
  worker: WorkerProcess,
  clockMs: number,
  timersMs = clockMs,
  alsoWaitFor: WorkerProcess[] = [],
): Promise<number> {
  const watched = [worker, ...alsoWaitFor].map((each) => ({ each, before: each.updates }));
  const renewed = () => watched.every(({ each, before }) => each.updates > before);
  clock.advance(clockMs);
  await vi.advanceTimersByTimeAsync(timersMs);
  for (let turn = 0; turn < 1000 && !renewed(); turn++) {
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  if (!renewed()) throw new Error('no renewal ran');
  return worker.lastUpdatedRows;
}

/** Counts the sends running at once and remembers the most. */
function inFlightCounter(): { max: number; around(send: () => Promise<unknown>): Promise<void> } {
  let current = 0;
  const counter = {
    max: 0,
    async around(send: () => Promise<unknown>) {
      current += 1;
      counter.max = Math.max(counter.max, current);
      try {
        await send();
      } finally {
        current -= 1;
      }
    },
  };
  return counter;
}

/** Waits, without a timer, until the worker under test has reached its transport. */
async function waitUntil(condition: () => boolean): Promise<void> {
  // Bounded by time, not turns: on a loaded machine PostgreSQL may take many turns to answer.
  const deadline = Date.now() + 10_000;
  while (!condition() && Date.now() < deadline) {
    await new Promise((resolve) => setImmediate(resolve));
  }
  if (!condition()) throw new Error('condition never became true');
}
