import { type Clock, systemClock } from '@commerce/core';
import type { Database } from '@commerce/db';
import { type Kysely, sql } from 'kysely';
import { Webhook } from 'standardwebhooks';
import { enqueueEmail } from '../enqueue-email.ts';
import { describeDeliveryFailure } from '../errors.ts';
import { createLeaseHeartbeat } from '../outbox-lease.ts';
import { type Logger, silentLogger } from '../types.ts';
import { signingSecretsOf } from './secrets.ts';
import { sendWebhookRequest, type WebhookResponse, WebhookSendError } from './send-webhook.ts';
import type { HostResolver } from './url-safety.ts';

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
/** A retry waits between 80% and 100% of its exponential delay, so deliveries failed together spread out. */
const JITTER_RATIO = 0.2;
const PRUNE_BATCH = 1000;

export interface WebhookWorkerOptions {
  db: Kysely<Database>;
  /** WEBHOOK_SIGNING_KEY: endpoint secrets are derived from it. */
  signingKey: string;
  /** WEBHOOK_ALLOW_PRIVATE_HOSTS: when false, every connection is checked against non-public addresses. */
  allowPrivateHosts: boolean;
  clock?: Clock;
  logger?: Logger;
  resolve?: HostResolver;
  /** Deliveries in flight at once (default 10). */
  concurrency?: number;
  /** How long a claim is exclusive unless renewed (default 30 s); longer than `timeoutMs`. */
  leaseMs?: number;
  /** Time between lease renewals (default a third of `leaseMs`). */
  heartbeatMs?: number;
  /** One request's deadline (default 10 s). */
  timeoutMs?: number;
  /** First retry delay (default 10 s), doubled per attempt up to `maxBackoffMs` (default 4 h), less jitter. */
  baseBackoffMs?: number;
  maxBackoffMs?: number;
  /** A delivery still failing this long after its event is FAILED (default 3 days). */
  retryWindowMs?: number;
  /** An endpoint whose every attempt failed for this long is disabled and its Owners emailed (default 5 days). */
  disableAfterMs?: number;
  pollIntervalMs?: number;
  /** DELIVERED and FAILED deliveries are deleted this long after they finished (default 30 days). */
  retentionMs?: number;
  /** Source of jitter, in [0, 1). */
  random?: () => number;
}

export interface WebhookRunResult {
  claimed: number;
  delivered: number;
  retried: number;
  failed: number;
}

export interface WebhookWorker {
  /** Claims the due deliveries (at most `concurrency`), sends them and records each outcome. */
  runOnce(): Promise<WebhookRunResult>;
  start(): void;
  /** Stops claiming and waits for the deliveries in flight. */
  stop(): Promise<void>;
}

interface ClaimedDelivery {
  organization_id: string;
  id: string;
  attempts: number;
  endpoint_id: string;
  event_id: string;
  body: string;
  created_at: Date;
}

type Outcome = 'delivered' | 'retried' | 'failed' | 'superseded' | 'unsent';

/** Delay before retry number `attempts`: min(max, base * 2^(attempts - 1)), less up to 20% jitter. */
export function webhookRetryDelayMs(
  attempts: number,
  options: { baseBackoffMs: number; maxBackoffMs: number },
  random: () => number = Math.random,
): number {
  const exponential = options.baseBackoffMs * 2 ** Math.max(0, attempts - 1);
  return Math.round(Math.min(options.maxBackoffMs, exponential) * (1 - JITTER_RATIO * random()));
}

/**
 * The webhook outbox's worker (docs/webhooks.md "Delivery"). Claims due deliveries under a short
 * lease renewed while it works on them (as the email outbox), never a delivery whose object has an
 * earlier one still open for the same endpoint, signs each with the endpoint's secrets (the current
 * and, during a rotation, the previous) and POSTs it. A 2xx delivers; anything else is retried with
 * exponential backoff and jitter until the retry window since the event ends, then FAILED.
 */
export function createWebhookWorker(options: WebhookWorkerOptions): WebhookWorker {
  const { db, signingKey, allowPrivateHosts } = options;
  const clock = options.clock ?? systemClock;
  const logger = options.logger ?? silentLogger;
  const concurrency = options.concurrency ?? 10;
  const leaseMs = options.leaseMs ?? 30_000;
  const timeoutMs = options.timeoutMs ?? 10_000;
  const backoff = {
    baseBackoffMs: options.baseBackoffMs ?? 10_000,
    maxBackoffMs: options.maxBackoffMs ?? 4 * HOUR_MS,
  };
  const retryWindowMs = options.retryWindowMs ?? 3 * DAY_MS;
  const disableAfterMs = options.disableAfterMs ?? 5 * DAY_MS;
  const pollIntervalMs = options.pollIntervalMs ?? 1000;
  const retentionMs = options.retentionMs ?? 30 * DAY_MS;
  const random = options.random ?? Math.random;
  const heartbeat = createLeaseHeartbeat({
    db,
    clock,
    leaseMs,
    intervalMs: options.heartbeatMs ?? Math.floor(leaseMs / 3),
    deliveryTimeoutMs: timeoutMs,
    logger,
    table: 'webhook_deliveries',
  });
  let lastPruneAt = 0;

  async function claim(limit: number): Promise<ClaimedDelivery[]> {
    const now = clock.now();
    const leaseEnd = new Date(now.getTime() + leaseMs);
    const claimed = await db.transaction().execute(async (trx) => {
      const due = await trx
        .selectFrom('webhook_deliveries as d')
        .select(['d.organization_id', 'd.id'])
        // Literal, so PostgreSQL can use the partial index webhook_deliveries_due_idx.
        .where(sql<boolean>`d.status in ('PENDING', 'PROCESSING')`)
        .where((eb) =>
          eb.or([
            eb.and([eb('d.status', '=', 'PENDING'), eb('d.next_attempt_at', '<=', now)]),
            eb.and([eb('d.status', '=', 'PROCESSING'), eb('d.locked_until', '<', now)]),
          ]),
        )
        // In order per object: not while an earlier delivery of the same object to the same endpoint is open.
        .where(
          sql<boolean>`(d.ordering_key is null or not exists (
            select 1 from webhook_deliveries earlier
            where earlier.organization_id = d.organization_id and earlier.endpoint_id = d.endpoint_id
              and earlier.ordering_key = d.ordering_key and earlier.sequence < d.sequence
              and earlier.status in ('PENDING', 'PROCESSING')
          ))`,
        )
        .orderBy('d.next_attempt_at')
        .orderBy('d.sequence')
        .limit(limit)
        .forUpdate()
        .skipLocked()
        .execute();
      if (due.length === 0) return [];
      return trx
        .updateTable('webhook_deliveries')
        .set((eb) => ({ status: 'PROCESSING', locked_until: leaseEnd, attempts: eb('attempts', '+', 1) }))
        .where((eb) =>
          eb(
            eb.refTuple('organization_id', 'id'),
            'in',
            due.map((row) => eb.tuple(row.organization_id, row.id)),
          ),
        )
        .returning(['organization_id', 'id', 'attempts', 'endpoint_id', 'event_id', 'body', 'created_at'])
        .execute();
    });
    for (const row of claimed) heartbeat.hold(row, leaseEnd);
    return claimed;
  }

  /** Updates the row only while it is still this claim's: PROCESSING with the attempts value the claim set. */
  function ownedBy(row: ClaimedDelivery, executor: Kysely<Database> = db) {
    return executor
      .updateTable('webhook_deliveries')
      .where('organization_id', '=', row.organization_id)
      .where('id', '=', row.id)
      .where('status', '=', 'PROCESSING')
      .where('attempts', '=', row.attempts);
  }

  function logFields(row: ClaimedDelivery): Record<string, unknown> {
    return {
      deliveryId: row.id,
      organizationId: row.organization_id,
      endpointId: row.endpoint_id,
      eventId: row.event_id,
      attempts: row.attempts,
    };
  }

  /** Records a failed attempt on the endpoint; disables it once every attempt failed for `disableAfterMs`. */
  async function noteEndpointFailure(trx: Kysely<Database>, row: ClaimedDelivery, now: Date): Promise<void> {
    const endpoint = await trx
      .updateTable('webhook_endpoints')
      .set({ failing_since: sql`coalesce(failing_since, ${now})` })
      .where('organization_id', '=', row.organization_id)
      .where('id', '=', row.endpoint_id)
      .returning(['status', 'failing_since', 'url'])
      .executeTakeFirst();
    if (endpoint?.status !== 'ENABLED' || endpoint.failing_since === null) return;
    if (now.getTime() - endpoint.failing_since.getTime() < disableAfterMs) return;
    await trx
      .updateTable('webhook_endpoints')
      .set({ status: 'DISABLED', disabled_reason: 'FAILING', updated_at: now })
      .where('organization_id', '=', row.organization_id)
      .where('id', '=', row.endpoint_id)
      .execute();
    const owners = await trx
      .selectFrom('memberships')
      .select('email')
      .where('organization_id', '=', row.organization_id)
      .where('role', '=', 'Owner')
      .where('status', '=', 'ACTIVE')
      .execute();
    const days = Math.round(disableAfterMs / DAY_MS);
    for (const owner of owners)
      await enqueueEmail(trx, {
        organizationId: row.organization_id,
        templateType: 'SYSTEM_WEBHOOK_ENDPOINT_DISABLED',
        to: owner.email,
        subject: 'A webhook endpoint was disabled',
        text: [
          `Every delivery to your webhook endpoint ${endpoint.url} (${row.endpoint_id}) has failed for ${days} days, so it was disabled and no more events are sent to it.`,
          'Fix the receiver, then enable the endpoint again (PATCH /merchant/webhook-endpoints/{id} with status ENABLED) and redeliver the events you need from its delivery list.',
        ].join('\n\n'),
        metadata: { endpointId: row.endpoint_id },
        dedupeKey: `WEBHOOK_ENDPOINT_DISABLED:${row.endpoint_id}:${endpoint.failing_since.toISOString()}`,
        at: now,
      });
    logger.warn(logFields(row), 'webhook endpoint disabled after failing for days');
  }

  async function record(
    row: ClaimedDelivery,
    attemptAt: Date,
    response: WebhookResponse | undefined,
    error: string | undefined,
  ): Promise<Outcome> {
    const now = clock.now();
    const answered = {
      last_attempt_at: attemptAt,
      response_status: response?.status ?? null,
      response_body: response?.body ?? null,
      locked_until: null,
    };
    const succeeded = response !== undefined && response.status >= 200 && response.status <= 299;
    return db.transaction().execute(async (trx) => {
      if (succeeded) {
        const result = await ownedBy(row, trx)
          .set({
            ...answered,
            duration_ms: response.durationMs,
            status: 'DELIVERED',
            finished_at: now,
            last_error: null,
          })
          .executeTakeFirst();
        if (result.numUpdatedRows === 0n) return 'superseded';
        await trx
          .updateTable('webhook_endpoints')
          .set({ failing_since: null })
          .where('organization_id', '=', row.organization_id)
          .where('id', '=', row.endpoint_id)
          .where('failing_since', 'is not', null)
          .execute();
        return 'delivered';
      }
      const lastError = error ?? `answered ${response?.status}`;
      const nextAttemptAt = new Date(now.getTime() + webhookRetryDelayMs(row.attempts, backoff, random));
      const expired = nextAttemptAt.getTime() > row.created_at.getTime() + retryWindowMs;
      const result = await ownedBy(row, trx)
        .set({
          ...answered,
          duration_ms: response?.durationMs ?? null,
          last_error: lastError,
          ...(expired
            ? { status: 'FAILED' as const, finished_at: now }
            : { status: 'PENDING' as const, next_attempt_at: nextAttemptAt }),
        })
        .executeTakeFirst();
      if (result.numUpdatedRows === 0n) return 'superseded';
      await noteEndpointFailure(trx, row, now);
      if (expired) logger.error({ ...logFields(row), error: lastError }, 'webhook delivery failed for good');
      else
        logger.warn(
          { ...logFields(row), error: lastError, nextAttemptAt },
          'webhook delivery failed; will retry',
        );
      return expired ? 'failed' : 'retried';
    });
  }

  async function failWithoutSending(row: ClaimedDelivery, reason: string): Promise<Outcome> {
    const now = clock.now();
    const result = await ownedBy(row)
      .set({ status: 'FAILED', finished_at: now, locked_until: null, last_error: reason })
      .executeTakeFirst();
    return result.numUpdatedRows === 0n ? 'superseded' : 'failed';
  }

  async function deliver(row: ClaimedDelivery): Promise<Outcome> {
    const endpoint = await db
      .selectFrom('webhook_endpoints')
      .select(['url', 'status', 'secret_salt', 'previous_secret_salt', 'previous_secret_expires_at'])
      .where('organization_id', '=', row.organization_id)
      .where('id', '=', row.endpoint_id)
      .executeTakeFirst();
    if (!endpoint) return failWithoutSending(row, 'endpoint deleted');
    if (endpoint.status !== 'ENABLED') return failWithoutSending(row, 'endpoint disabled');
    if (!(await heartbeat.readyToSend(row))) {
      logger.warn(logFields(row), 'webhook not sent: its lease could not be confirmed for a whole send');
      return 'unsent';
    }
    const attemptAt = clock.now();
    const signature = signingSecretsOf(signingKey, endpoint, attemptAt)
      .map((secret) => new Webhook(secret).sign(row.event_id, attemptAt, row.body))
      .join(' ');
    let response: WebhookResponse | undefined;
    let error: string | undefined;
    try {
      response = await sendWebhookRequest({
        url: endpoint.url,
        body: row.body,
        headers: {
          'webhook-id': row.event_id,
          'webhook-timestamp': Math.floor(attemptAt.getTime() / 1000).toString(),
          'webhook-signature': signature,
        },
        timeoutMs,
        allowPrivateHosts,
        ...(options.resolve ? { resolve: options.resolve } : {}),
      });
    } catch (caught) {
      error = caught instanceof WebhookSendError ? caught.message : describeDeliveryFailure(caught);
    }
    return record(row, attemptAt, response, error);
  }

  async function settle(row: ClaimedDelivery): Promise<Outcome | undefined> {
    try {
      return await deliver(row);
    } catch (error) {
      logger.error(
        { ...logFields(row), error: describeDeliveryFailure(error) },
        'could not record the outcome of a webhook delivery',
      );
      return undefined;
    } finally {
      heartbeat.release(row);
    }
  }

  async function prune(): Promise<void> {
    const now = clock.now().getTime();
    if (now - lastPruneAt < 60_000) return;
    lastPruneAt = now;
    try {
      await db
        .deleteFrom('webhook_deliveries')
        .where((eb) =>
          eb(
            eb.refTuple('organization_id', 'id'),
            'in',
            eb
              .selectFrom('webhook_deliveries')
              .select(['organization_id', 'id'])
              .where(sql<boolean>`status in ('DELIVERED', 'FAILED')`)
              .where('finished_at', '<', new Date(now - retentionMs))
              .limit(PRUNE_BATCH)
              .$asTuple('organization_id', 'id'),
          ),
        )
        .execute();
    } catch (error) {
      logger.error({ error: describeDeliveryFailure(error) }, 'webhook delivery prune failed');
    }
  }

  async function runOnce(): Promise<WebhookRunResult> {
    const claimed = await claim(concurrency);
    const result: WebhookRunResult = { claimed: claimed.length, delivered: 0, retried: 0, failed: 0 };
    const outcomes = await Promise.all(claimed.map(settle));
    for (const outcome of outcomes)
      if (outcome === 'delivered' || outcome === 'retried' || outcome === 'failed') result[outcome] += 1;
    await prune();
    return result;
  }

  const inFlight = new Set<Promise<unknown>>();
  let isRunning = false;
  let loop: Promise<void> | undefined;
  let wake: (() => void) | undefined;

  function pause(ms: number): Promise<void> {
    if (!isRunning) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        wake = undefined;
        resolve();
      }
      wake = done;
    });
  }

  async function deliverContinuously(): Promise<void> {
    while (isRunning) {
      const free = concurrency - inFlight.size;
      if (free < Math.max(1, Math.floor(concurrency / 2))) {
        await Promise.race(inFlight);
        continue;
      }
      let claimed: ClaimedDelivery[];
      try {
        claimed = await claim(free);
      } catch (error) {
        logger.error({ error: describeDeliveryFailure(error) }, 'webhook claim failed');
        await pause(pollIntervalMs);
        continue;
      }
      for (const row of claimed) {
        const delivery: Promise<unknown> = settle(row).finally(() => {
          inFlight.delete(delivery);
          // A delivery done may free the next event of its object: look again at once.
          wake?.();
        });
        inFlight.add(delivery);
      }
      await prune();
      if (claimed.length < free) await pause(pollIntervalMs);
    }
    await Promise.all(inFlight);
  }

  return {
    runOnce,
    start() {
      if (isRunning) return;
      isRunning = true;
      if (loop !== undefined) return;
      loop = deliverContinuously().finally(() => {
        loop = undefined;
      });
    },
    async stop() {
      isRunning = false;
      wake?.();
      await loop;
    },
  };
}
