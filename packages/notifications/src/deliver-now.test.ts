import { AppError, ManualClock } from '@commerce/core';
import type { DatabaseHandle } from '@commerce/db';
import { ColumnNode, type KyselyPlugin, type QueryId, type UpdateQueryNode } from 'kysely';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  createNotificationsTestDatabase,
  deferred,
  ORG_ID,
  readOutboxRow,
  recordingLogger,
  recordingTransport,
} from '../test/factories.ts';
import {
  deliverOutboxRowNow,
  enqueueEmailForImmediateDelivery,
  IMMEDIATE_DELIVERY_HOLD_MS,
} from './deliver-now.ts';
import { createDevTransport } from './dev-transport.ts';
import { enqueueEmail } from './enqueue-email.ts';
import { PermanentDeliveryError, TransientDeliveryError } from './errors.ts';
import { createOutboxWorker } from './outbox-worker.ts';

let handle: DatabaseHandle;
const clock = new ManualClock('2026-03-01T10:00:00.000Z');

beforeAll(async () => {
  handle = await createNotificationsTestDatabase();
});

afterAll(async () => {
  await handle.close();
});

let sequence = 0;

async function queueTestEmail(to = `owner${++sequence}@shop.example`): Promise<string> {
  return handle.db.transaction().execute((trx) =>
    enqueueEmailForImmediateDelivery(trx, {
      organizationId: ORG_ID,
      templateType: 'ORDER_CONFIRMATION',
      to,
      subject: '[Test] Order 1042 confirmed',
      text: 'Thank you for your order',
      html: '<p>Thank you for your order</p>',
      replyTo: 'help@shop.example',
      metadata: { purpose: 'send-test' },
      at: clock.now(),
    }),
  );
}

async function failureOf(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => {
      throw new Error('expected a failure');
    },
    (error: unknown) => error,
  );
}

describe('enqueueEmailForImmediateDelivery', () => {
  it('queues a PENDING row that the polling worker leaves alone during the hold', async () => {
    const id = await queueTestEmail();
    const row = await readOutboxRow(handle.db, id);
    expect(row).toMatchObject({ status: 'PENDING', attempts: 0 });
    expect(row.next_attempt_at.getTime()).toBe(clock.now().getTime() + IMMEDIATE_DELIVERY_HOLD_MS);

    const transport = recordingTransport();
    const worker = createOutboxWorker({ db: handle.db, transport, clock });
    expect((await worker.runOnce()).claimed).toBe(0);
    expect(transport.callsById.get(id)).toBeUndefined();

    await deliverOutboxRowNow(handle.db, transport, { organizationId: ORG_ID, outboxId: id }, clock);
    expect(transport.callsById.get(id)).toBe(1);
  });
});

describe('deliverOutboxRowNow', () => {
  it('delivers through the development transport: the row is DONE without its body and a dev_emails row exists', async () => {
    const id = await queueTestEmail('carol@shop.example');
    clock.advance(1000);
    const logger = recordingLogger();

    const result = await deliverOutboxRowNow(
      handle.db,
      createDevTransport(handle.db, logger, clock),
      { organizationId: ORG_ID, outboxId: id },
      clock,
      { logger },
    );

    expect(result).toEqual({ outboxId: id, deliveredAt: clock.now() });
    const row = await readOutboxRow(handle.db, id);
    expect(row).toMatchObject({
      status: 'DONE',
      attempts: 1,
      payload: null,
      locked_until: null,
      last_error: null,
    });
    expect(row.delivered_at?.getTime()).toBe(clock.now().getTime());
    const recorded = await handle.db
      .selectFrom('dev_emails')
      .selectAll()
      .where('outbox_id', '=', id)
      .execute();
    expect(recorded).toHaveLength(1);
    expect(recorded[0]).toMatchObject({
      organization_id: ORG_ID,
      to_address: 'carol@shop.example',
      subject: '[Test] Order 1042 confirmed',
      text_body: 'Thank you for your order',
      html_body: '<p>Thank you for your order</p>',
    });
    expect(logger.text()).not.toContain('carol@');
  });

  it('hands the transport the stored message and the delivery context', async () => {
    const id = await queueTestEmail('dave@shop.example');
    const transport = recordingTransport();
    await deliverOutboxRowNow(handle.db, transport, { organizationId: ORG_ID, outboxId: id }, clock);
    expect(transport.sent).toEqual([
      {
        message: {
          to: 'dave@shop.example',
          subject: '[Test] Order 1042 confirmed',
          text: 'Thank you for your order',
          html: '<p>Thank you for your order</p>',
          replyTo: 'help@shop.example',
        },
        context: { organizationId: ORG_ID, outboxId: id, templateType: 'ORDER_CONFIRMATION' },
      },
    ]);
  });

  const failures: [string, () => Error, string, number, string][] = [
    [
      'a transient failure',
      () => new TransientDeliveryError('SMTP ECONNECTION'),
      'PROVIDER_UNAVAILABLE',
      503,
      'SMTP ECONNECTION',
    ],
    [
      'a connection error that is not a DeliveryError',
      () => Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:25'), { code: 'ECONNREFUSED' }),
      'PROVIDER_UNAVAILABLE',
      503,
      'Error ECONNREFUSED',
    ],
    [
      'a permanent refusal',
      () => new PermanentDeliveryError('SMTP EENVELOPE 550 at RCPT TO'),
      'PROVIDER_ERROR',
      502,
      'SMTP EENVELOPE 550 at RCPT TO',
    ],
  ];
  for (const [name, makeError, code, status, lastError] of failures) {
    it(`answers ${code} (${status}) for ${name} and fails the row for good, without its body`, async () => {
      const id = await queueTestEmail();
      const transport = recordingTransport(async () => {
        throw makeError();
      });

      const failure = await failureOf(
        deliverOutboxRowNow(handle.db, transport, { organizationId: ORG_ID, outboxId: id }, clock),
      );

      expect(failure).toBeInstanceOf(AppError);
      expect(failure).toMatchObject({ code, status });
      const row = await readOutboxRow(handle.db, id);
      expect(row).toMatchObject({
        status: 'FAILED',
        attempts: 1,
        payload: null,
        locked_until: null,
        last_error: lastError,
      });

      // Not retried later: the worker finds nothing to do, even long after.
      clock.advance(IMMEDIATE_DELIVERY_HOLD_MS + 60_000);
      const worker = createOutboxWorker({ db: handle.db, transport, clock });
      await worker.runOnce();
      expect(transport.callsById.get(id)).toBe(1);
    });
  }

  it('answers PROVIDER_UNAVAILABLE when the send outlasts its timeout', async () => {
    const id = await queueTestEmail();
    const transport = recordingTransport(() => new Promise<void>(() => {}));
    const failure = await failureOf(
      deliverOutboxRowNow(handle.db, transport, { organizationId: ORG_ID, outboxId: id }, clock, {
        leaseMs: 1000,
        deliveryTimeoutMs: 20,
      }),
    );
    expect(failure).toMatchObject({ code: 'PROVIDER_UNAVAILABLE' });
    expect(await readOutboxRow(handle.db, id)).toMatchObject({
      status: 'FAILED',
      last_error: 'delivery timed out after 20 ms',
    });
  });

  it('refuses a row that is not pending, of another tenant, or unknown, without calling the transport', async () => {
    const transport = recordingTransport();
    const delivered = await queueTestEmail();
    await deliverOutboxRowNow(handle.db, transport, { organizationId: ORG_ID, outboxId: delivered }, clock);
    const other = await queueTestEmail();

    for (const ref of [
      { organizationId: ORG_ID, outboxId: delivered },
      { organizationId: 'org_other_tenant', outboxId: other },
      { organizationId: ORG_ID, outboxId: 'obx_unknown' },
    ]) {
      await expect(deliverOutboxRowNow(handle.db, transport, ref, clock)).rejects.toThrow('not pending');
    }
    expect(transport.sent).toHaveLength(1);
    expect((await readOutboxRow(handle.db, other)).status).toBe('PENDING');
  });

  it('refuses a row queued for the worker in another kind', async () => {
    const id = await enqueueEmail(handle.db, {
      organizationId: ORG_ID,
      templateType: 't',
      to: 'x@shop.example',
      subject: 's',
      text: 't',
      at: clock.now(),
    });
    await handle.db.updateTable('outbox').set({ kind: 'webhook' }).where('id', '=', id).execute();
    await expect(
      deliverOutboxRowNow(handle.db, recordingTransport(), { organizationId: ORG_ID, outboxId: id }, clock),
    ).rejects.toThrow('not pending');
  });

  it('sends a row once when two deliveries and the worker race for it', async () => {
    const id = await queueTestEmail();
    // The worker may claim it too once the hold has passed.
    clock.advance(IMMEDIATE_DELIVERY_HOLD_MS);
    const transport = recordingTransport();
    const worker = createOutboxWorker({ db: handle.db, transport, clock });
    const ref = { organizationId: ORG_ID, outboxId: id };

    const outcomes = await Promise.allSettled([
      deliverOutboxRowNow(handle.db, transport, ref, clock),
      deliverOutboxRowNow(handle.db, transport, ref, clock),
      worker.runOnce(),
    ]);

    expect(transport.callsById.get(id)).toBe(1);
    const nowDelivered = outcomes.slice(0, 2).filter((outcome) => outcome.status === 'fulfilled');
    expect(nowDelivered.length).toBeLessThanOrEqual(1);
    expect(await readOutboxRow(handle.db, id)).toMatchObject({ status: 'DONE', attempts: 1 });
  });
});

describe('deliverOutboxRowNow leases', () => {
  // Only the heartbeat's interval is faked: the clock is the ManualClock, and the database's own timers stay real.
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('renews its 15 s lease every 5 s while the send runs, and the worker never takes the row meanwhile', async () => {
    const id = await queueTestEmail();
    // Past the hold: only the lease keeps the worker away.
    clock.advance(IMMEDIATE_DELIVERY_HOLD_MS);
    const release = deferred();
    const transport = recordingTransport(() => release.promise);
    const delivery = deliverOutboxRowNow(
      handle.db,
      transport,
      { organizationId: ORG_ID, outboxId: id },
      clock,
    );
    await waitUntil(() => transport.sent.length === 1);
    expect((await readOutboxRow(handle.db, id)).locked_until?.getTime()).toBe(clock.now().getTime() + 15_000);

    const workerTransport = recordingTransport();
    const worker = createOutboxWorker({ db: handle.db, transport: workerTransport, clock });
    // 9 s of sending, within its 10 s timeout: a renewal every 5 s of its timer.
    for (let tick = 0; tick < 3; tick++) {
      clock.advance(3000);
      await vi.advanceTimersByTimeAsync(5000);
      await leaseEndsAt(id, clock.now().getTime() + 15_000);
      expect((await worker.runOnce()).claimed).toBe(0);
    }

    release.resolve();
    expect(await delivery).toMatchObject({ outboxId: id });
    expect(await readOutboxRow(handle.db, id)).toMatchObject({
      status: 'DONE',
      attempts: 1,
      locked_until: null,
    });
    expect(workerTransport.sent).toHaveLength(0);
    // Nothing is renewed once the send ended.
    expect(vi.getTimerCount()).toBe(0);
  });

  it('leaves the row of a process that died mid-send to the worker 15 s after its last renewal', async () => {
    const id = await queueTestEmail();
    const hang = deferred();
    const transport = recordingTransport(() => hang.promise);
    const delivery = deliverOutboxRowNow(
      handle.db,
      transport,
      { organizationId: ORG_ID, outboxId: id },
      clock,
    );
    await waitUntil(() => transport.sent.length === 1);

    // The process died: its heartbeat never runs again (the faked interval is not advanced).
    const workerTransport = recordingTransport();
    const worker = createOutboxWorker({ db: handle.db, transport: workerTransport, clock });
    clock.advance(15_000);
    expect((await worker.runOnce()).claimed).toBe(0);
    clock.advance(1);
    expect(await worker.runOnce()).toMatchObject({ claimed: 1, delivered: 1 });
    // At least once: sent again by the worker, the row finished by its claim.
    expect(workerTransport.callsById.get(id)).toBe(1);
    expect(await readOutboxRow(handle.db, id)).toMatchObject({ status: 'DONE', attempts: 2, payload: null });

    // End the "dead" send so the test leaves nothing running; its outcome cannot overwrite the worker's.
    hang.resolve();
    await Promise.allSettled([delivery]);
    expect(await readOutboxRow(handle.db, id)).toMatchObject({ status: 'DONE', attempts: 2 });
  });

  it('does not send when a slow claim left less lease than a send and renewing fails; the worker sends it once the lease lapses', async () => {
    const id = await queueTestEmail('carol@shop.example');
    let claimedAt = 0;
    const claims = new Set<QueryId>();
    // The claim takes 6 s to come back (a saturated pool), then the database refuses renewals.
    const slowDatabase: KyselyPlugin = {
      transformQuery(args) {
        if (args.node.kind === 'UpdateQueryNode') {
          const columns = updatedColumns(args.node);
          if (columns.length === 1 && columns[0] === 'locked_until') {
            throw new Error('Connection terminated unexpectedly');
          }
          if (columns.includes('attempts')) claims.add(args.queryId);
        }
        return args.node;
      },
      async transformResult(args) {
        if (claims.delete(args.queryId)) {
          claimedAt = clock.now().getTime();
          clock.advance(6000);
        }
        return args.result;
      },
    };
    const transport = recordingTransport();
    const logger = recordingLogger();

    const failure = await failureOf(
      deliverOutboxRowNow(
        handle.db.withPlugin(slowDatabase),
        transport,
        { organizationId: ORG_ID, outboxId: id },
        clock,
        { logger },
      ),
    );
    expect(failure).toMatchObject({ code: 'SERVICE_UNAVAILABLE' });
    expect(transport.sent).toHaveLength(0);
    const left = await readOutboxRow(handle.db, id);
    expect(left).toMatchObject({ status: 'PROCESSING', attempts: 1 });
    expect(left.locked_until?.getTime()).toBe(claimedAt + 15_000);
    expect(logger.lines).toContainEqual({
      level: 'warn',
      obj: expect.objectContaining({ outboxId: id, attempts: 1 }),
      msg: 'email not sent now: its lease could not be confirmed for a whole send',
    });
    expect(logger.text()).not.toMatch(/carol@|Thank you/);
    expect(vi.getTimerCount()).toBe(0);

    // At least once: the worker sends it when the lease has lapsed, and not before.
    const workerTransport = recordingTransport();
    const worker = createOutboxWorker({ db: handle.db, transport: workerTransport, clock });
    expect((await worker.runOnce()).claimed).toBe(0);
    clock.advance(9_001);
    expect(await worker.runOnce()).toMatchObject({ claimed: 1, delivered: 1 });
    expect(workerTransport.callsById.get(id)).toBe(1);
    expect(await readOutboxRow(handle.db, id)).toMatchObject({ status: 'DONE', attempts: 2 });
  });

  it('refuses a delivery timeout that is not shorter than the lease, before claiming', async () => {
    const id = await queueTestEmail();
    const transport = recordingTransport();
    await expect(
      deliverOutboxRowNow(handle.db, transport, { organizationId: ORG_ID, outboxId: id }, clock, {
        leaseMs: 15_000,
        deliveryTimeoutMs: 20_000,
      }),
    ).rejects.toThrow('deliveryTimeoutMs (20000 ms) must be shorter than leaseMs (15000 ms)');
    expect(await readOutboxRow(handle.db, id)).toMatchObject({ status: 'PENDING', attempts: 0 });
  });
});

/** The columns an UPDATE sets: a renewal sets `locked_until` alone, a claim `attempts` too. */
function updatedColumns(node: UpdateQueryNode): (string | undefined)[] {
  return (node.updates ?? []).map((update) =>
    ColumnNode.is(update.column) ? update.column.column.name : undefined,
  );
}

/** Waits, without a timer, until the delivery under test has reached its transport. */
async function waitUntil(condition: () => boolean): Promise<void> {
  // Bounded by time, not turns: on a loaded machine PostgreSQL may take many turns to answer.
  const deadline = Date.now() + 10_000;
  while (!condition() && Date.now() < deadline) {
    await new Promise((resolve) => setImmediate(resolve));
  }
  if (!condition()) throw new Error('condition never became true');
}

/** Waits until the row's lease was renewed to end at `expected` (epoch milliseconds). */
async function leaseEndsAt(id: string, expected: number): Promise<void> {
  for (let turn = 0; turn < 1000; turn++) {
    if ((await readOutboxRow(handle.db, id)).locked_until?.getTime() === expected) return;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  throw new Error(`the lease was not renewed to ${new Date(expected).toISOString()}`);
}
