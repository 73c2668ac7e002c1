import { createHash } from 'node:crypto';
import { AppError, canonicalJson, hashToken } from '@commerce/core';
import { type Kysely, sql } from 'kysely';
import type { Database } from './schema.ts';
import { inTransaction } from './transaction.ts';

/**
 * Idempotency keys (docs/api.md "Idempotency keys"): one mechanism for every route
 * that takes a key. The route reads the key with `readIdempotencyKey`, then
 * runs its change through `withIdempotency` inside its own transaction.
 */
export const IDEMPOTENCY_KEY_HEADER = 'x-idempotency-key';
/** The IETF draft's name, accepted as an alias. */
export const IDEMPOTENCY_KEY_ALIAS_HEADER = 'idempotency-key';
/** Sent with `true` on a replayed response. */
export const IDEMPOTENT_REPLAYED_HEADER = 'idempotent-replayed';
export const IDEMPOTENCY_KEY_PATTERN = /^[A-Za-z0-9_.:-]{16,255}$/;

const HOUR_MS = 60 * 60 * 1000;
/** At least 24 hours; 30 days where the effect is money or goods (payments, fulfillment, labels). */
export const IDEMPOTENCY_RETENTION_MS = { standard: 24 * HOUR_MS, money: 30 * 24 * HOUR_MS } as const;
export type IdempotencyRetention = keyof typeof IDEMPOTENCY_RETENTION_MS;

const KEY_ISSUE_PATH = `headers.${IDEMPOTENCY_KEY_HEADER}`;

/**
 * The request's idempotency key, from `x-idempotency-key` or its alias
 * `Idempotency-Key` (whose draft form is a quoted string). Missing where
 * required, malformed, or two different values: 400 VALIDATION_FAILED at
 * `headers.x-idempotency-key`.
 */
export function readIdempotencyKey(headers: Headers, options: { required: true }): string;
export function readIdempotencyKey(headers: Headers, options?: { required?: boolean }): string | undefined;
export function readIdempotencyKey(
  headers: Headers,
  options: { required?: boolean } = {},
): string | undefined {
  const primary = headers.get(IDEMPOTENCY_KEY_HEADER);
  const aliasRaw = headers.get(IDEMPOTENCY_KEY_ALIAS_HEADER);
  const alias = aliasRaw !== null && /^".*"$/.test(aliasRaw) ? aliasRaw.slice(1, -1) : aliasRaw;
  if (primary !== null && alias !== null && primary !== alias) {
    throw AppError.validation(
      [{ path: KEY_ISSUE_PATH, message: 'x-idempotency-key and Idempotency-Key carry different keys' }],
      'The idempotency key is ambiguous',
    );
  }
  const key = primary ?? alias;
  if (key === null) {
    if (!options.required) return undefined;
    throw AppError.validation(
      [{ path: KEY_ISSUE_PATH, message: 'is required' }],
      'The x-idempotency-key header is required',
    );
  }
  if (!IDEMPOTENCY_KEY_PATTERN.test(key)) {
    throw AppError.validation(
      [
        {
          path: KEY_ISSUE_PATH,
          message: 'must be 16 to 255 characters of A-Z, a-z, 0-9, "_", ".", ":" or "-"',
        },
      ],
      'The idempotency key is malformed',
    );
  }
  return key;
}

const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

export interface IdempotencyRequest {
  organizationId: string;
  /** The route template, e.g. `POST /public/checkout/sessions/:token/payment-session`. */
  operation: string;
  /** The raw key from `readIdempotencyKey`; only its SHA-256 is stored. */
  key: string;
  /**
   * What the request asks for: the resolved path ids and the body. The actor
   * and other headers are not part of it. Path ids that are credentials (a
   * checkout token) are hashed with the rest, never stored.
   */
  intent: { params?: Record<string, string>; body?: unknown };
  retention: IdempotencyRetention;
  now: Date;
}

export interface IdempotentResponse<T> {
  status: number;
  body: T;
}

export interface IdempotentOutcome<T> extends IdempotentResponse<T> {
  /** True when this is the recorded outcome of an earlier request: send `idempotent-replayed: true`. */
  replayed: boolean;
}

export interface IdempotencyOptions<T> {
  /** What of the body to keep for replays; strip raw credentials here. The body as it is by default. */
  toRecord?: (body: T) => unknown;
  /**
   * Rebuilds a replayed body from the recorded one, in the same transaction:
   * read present-tense fields fresh (`serverTime`, `expiresInSeconds`), or
   * issue a new credential for the same object. The recorded body by default.
   */
  fromRecord?: (trx: Kysely<Database>, recorded: IdempotentResponse<unknown>) => Promise<T>;
}

/**
 * Runs `run` at most once per (tenant, operation, key). The key is claimed
 * first, in the operation's transaction (opened here when `db` is not one):
 * a concurrent duplicate blocks on the primary key until this transaction
 * ends, then replays its outcome or, if it rolled back, runs itself. The same
 * key with the same intent gets the recorded status and body (`replayed`);
 * with another intent, 409 IDEMPOTENCY_KEY_REUSED and `details.fields`. Only
 * a committed 2xx is recorded: when `run` throws, the claim is taken back
 * with the rest of the transaction, so a retry runs again. An expired record
 * (not yet pruned) counts as absent.
 */
export function withIdempotency<T>(
  db: Kysely<Database>,
  request: IdempotencyRequest,
  run: (trx: Kysely<Database>) => Promise<IdempotentResponse<T>>,
  options: IdempotencyOptions<T> = {},
): Promise<IdempotentOutcome<T>> {
  const keyRecord = prepared(request);
  const { keyHash, fields, intentHash } = keyRecord;
  const scope = (trx: Kysely<Database>) =>
    trx
      .selectFrom('idempotency_keys')
      .where('organization_id', '=', request.organizationId)
      .where('operation', '=', request.operation)
      .where('key_hash', '=', keyHash);

  return inTransaction(db, async (trx) => {
    if (await claimKey(trx, request, keyRecord)) {
      const release = () =>
        trx
          .deleteFrom('idempotency_keys')
          .where('organization_id', '=', request.organizationId)
          .where('operation', '=', request.operation)
          .where('key_hash', '=', keyHash)
          .execute();
      let response: IdempotentResponse<T>;
      try {
        response = await run(trx);
      } catch (error) {
        // The rollback takes the claim back: the one this throw causes when the transaction is ours,
        // or an aborted transaction's after a database error. A caller's transaction that commits
        // anyway must not keep a claim without an outcome.
        if (db.isTransaction) await release().catch(() => undefined);
        throw error;
      }
      if (response.status < 200 || response.status > 299) {
        await release();
        return { ...response, replayed: false };
      }
      const recorded = options.toRecord ? options.toRecord(response.body) : response.body;
      await trx
        .updateTable('idempotency_keys')
        .set({ response_status: response.status, response_body: canonicalJson(recorded) })
        .where('organization_id', '=', request.organizationId)
        .where('operation', '=', request.operation)
        .where('key_hash', '=', keyHash)
        .execute();
      return { ...response, replayed: false };
    }

    const existing = await scope(trx)
      .select(['intent_hash', 'intent_fields', 'response_status', 'response_body'])
      .executeTakeFirstOrThrow();
    if (existing.intent_hash !== intentHash) {
      throw new AppError('IDEMPOTENCY_KEY_REUSED', undefined, {
        fields: differingFields(existing.intent_fields, fields),
      });
    }
    if (existing.response_status === null) {
      // Only this same transaction can see a claim without an outcome: the key was used twice in it.
      throw new Error(`idempotency key claimed twice in one transaction (${request.operation})`);
    }
    const recorded = { status: existing.response_status, body: existing.response_body as unknown };
    const body = options.fromRecord ? await options.fromRecord(trx, recorded) : (recorded.body as T);
    return { status: recorded.status, body, replayed: true };
  });
}

/**
 * Whether the key has a committed, live record (an expired one counts as
 * absent, as in `withIdempotency`): the request can then only replay or be
 * refused as a reuse, so an operation may skip the provider calls it makes
 * before its transaction (a merchant booking's quote). A claim still in flight is not seen: that
 * request makes its own calls, then waits on the first in `withIdempotency`.
 */
export async function isIdempotencyKeyRecorded(
  db: Kysely<Database>,
  request: Pick<IdempotencyRequest, 'organizationId' | 'operation' | 'key' | 'now'>,
): Promise<boolean> {
  const row = await db
    .selectFrom('idempotency_keys')
    .select('key_hash')
    .where('organization_id', '=', request.organizationId)
    .where('operation', '=', request.operation)
    .where('key_hash', '=', hashToken(request.key))
    .where('expires_at', '>', request.now)
    .where('response_status', 'is not', null)
    .executeTakeFirst();
  return row !== undefined;
}

/** A hash per top-level body field and per path id: enough to name what differs, nothing to read back. */
function intentFields(intent: IdempotencyRequest['intent']): Record<string, string> {
  const fields: Record<string, string> = {};
  const { body } = intent;
  if (body !== null && typeof body === 'object' && !Array.isArray(body)) {
    for (const [name, value] of Object.entries(body)) {
      if (value !== undefined) fields[name] = sha256(canonicalJson(value));
    }
  } else if (body !== undefined) {
    fields[''] = sha256(canonicalJson(body));
  }
  for (const [name, value] of Object.entries(intent.params ?? {}))
    fields[name] = sha256(canonicalJson(value));
  return fields;
}

function differingFields(recorded: Record<string, string>, current: Record<string, string>): string[] {
  const names = new Set([...Object.keys(recorded), ...Object.keys(current)]);
  return [...names].filter((name) => recorded[name] !== current[name]).sort();
}

/**
 * Deletes expired idempotency records in batches (the worker's job); returns
 * how many went. Each batch is its own statement, so pruning never holds
 * many locks at once.
 */
export async function pruneIdempotencyKeys(
  db: Kysely<Database>,
  now: Date,
  options: { batchSize?: number } = {},
): Promise<number> {
  const batchSize = options.batchSize ?? 1000;
  let total = 0;
  for (;;) {
    const result = await sql`
      delete from idempotency_keys
      where (organization_id, operation, key_hash) in (
        select organization_id, operation, key_hash from idempotency_keys
        where expires_at <= ${now} limit ${batchSize})`.execute(db);
    const deleted = Number(result.numAffectedRows ?? 0n);
    total += deleted;
    if (deleted < batchSize) return total;
  }
}

/** How long an applied payment event id is kept: longer than the processor retries (Stripe: 3 days). */
export const PAYMENT_WEBHOOK_EVENT_RETENTION_MS = 30 * 24 * HOUR_MS;

/**
 * Records a payment webhook event id in the caller's transaction. False when
 * it was recorded before (a replay: do nothing); a concurrent delivery of the
 * same event waits on the primary key until the first one's transaction ends.
 */
export async function claimPaymentWebhookEvent(
  trx: Kysely<Database>,
  event: { id: string; type: string; intentId: string | null },
  receivedAt: Date,
): Promise<boolean> {
  const inserted = await trx
    .insertInto('payment_webhook_events')
    .values({ event_id: event.id, type: event.type, intent_id: event.intentId, received_at: receivedAt })
    .onConflict((conflict) => conflict.column('event_id').doNothing())
    .returning('event_id')
    .executeTakeFirst();
  return inserted !== undefined;
}

/** Deletes event ids received before `now - PAYMENT_WEBHOOK_EVENT_RETENTION_MS` (the worker's job). */
export async function prunePaymentWebhookEvents(db: Kysely<Database>, now: Date): Promise<number> {
  const result = await db
    .deleteFrom('payment_webhook_events')
    .where('received_at', '<', new Date(now.getTime() - PAYMENT_WEBHOOK_EVENT_RETENTION_MS))
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

/**
 * A key bound across a provider call made between two transactions (the
 * label purchase, a shipment's void): bound without an answer in the first transaction,
 * then answered (`recordIdempotentAnswer`) or released
 * (`releaseIdempotencyKey`) in a later one. Until then a same-key request
 * sees `PENDING` and answers from the state of what it bound, never by
 * calling the provider again.
 *
 * - `BOUND`: claimed now, in this transaction;
 * - `PENDING`: bound by an earlier request with the same intent, not answered;
 * - `RECORDED`: answered, the same intent: replay it;
 * - `NONE` (reads only): no live binding.
 *
 * Another intent under a live key is 409 IDEMPOTENCY_KEY_REUSED.
 */
export type IdempotencyBinding =
  | { kind: 'BOUND' }
  | { kind: 'PENDING' }
  | { kind: 'RECORDED'; status: number; body: unknown }
  | { kind: 'NONE' };

/**
 * Writes the key's record without an answer; an expired record (not yet pruned) is replaced. True
 * when this transaction now holds the key; false when a live record exists, which PostgreSQL still
 * locks for this transaction (a concurrent claimer waits on the primary key until it ends).
 */
async function claimKey(
  trx: Kysely<Database>,
  request: IdempotencyRequest,
  record: ReturnType<typeof prepared>,
): Promise<boolean> {
  const claimed = await trx
    .insertInto('idempotency_keys')
    .values({
      organization_id: request.organizationId,
      operation: request.operation,
      key_hash: record.keyHash,
      intent_hash: record.intentHash,
      intent_fields: JSON.stringify(record.fields),
      response_status: null,
      response_body: null,
      created_at: request.now,
      expires_at: record.expiresAt,
    })
    .onConflict((conflict) =>
      conflict
        .columns(['organization_id', 'operation', 'key_hash'])
        .doUpdateSet((eb) => ({
          intent_hash: eb.ref('excluded.intent_hash'),
          intent_fields: eb.ref('excluded.intent_fields'),
          response_status: null,
          response_body: null,
          created_at: eb.ref('excluded.created_at'),
          expires_at: eb.ref('excluded.expires_at'),
        }))
        .where('idempotency_keys.expires_at', '<=', request.now),
    )
    .returning('key_hash')
    .executeTakeFirst();
  return claimed !== undefined;
}

function prepared(request: IdempotencyRequest) {
  const fields = intentFields(request.intent);
  return {
    keyHash: hashToken(request.key),
    fields,
    intentHash: sha256(
      canonicalJson({
        operation: request.operation,
        params: request.intent.params ?? {},
        body: request.intent.body,
      }),
    ),
    expiresAt: new Date(request.now.getTime() + IDEMPOTENCY_RETENTION_MS[request.retention]),
  };
}

/** The SHA-256 of a key as it is stored, for a record that names the key it was made under. */
export const idempotencyKeyHash = (key: string): string => hashToken(key);

async function existingBinding(
  db: Kysely<Database>,
  request: IdempotencyRequest,
  keyHash: string,
  intentHash: string,
  fields: Record<string, string>,
): Promise<IdempotencyBinding> {
  const existing = await db
    .selectFrom('idempotency_keys')
    .select(['intent_hash', 'intent_fields', 'response_status', 'response_body'])
    .where('organization_id', '=', request.organizationId)
    .where('operation', '=', request.operation)
    .where('key_hash', '=', keyHash)
    .where('expires_at', '>', request.now)
    .executeTakeFirst();
  if (!existing) return { kind: 'NONE' };
  if (existing.intent_hash !== intentHash)
    throw new AppError('IDEMPOTENCY_KEY_REUSED', undefined, {
      fields: differingFields(existing.intent_fields, fields),
    });
  return existing.response_status === null
    ? { kind: 'PENDING' }
    : { kind: 'RECORDED', status: existing.response_status, body: existing.response_body };
}

/** The key's live binding, read without a lock or a write (a pre-check before provider reads). */
export function readIdempotencyBinding(
  db: Kysely<Database>,
  request: IdempotencyRequest,
): Promise<IdempotencyBinding> {
  const { keyHash, intentHash, fields } = prepared(request);
  return existingBinding(db, request, keyHash, intentHash, fields);
}

/**
 * Binds the key in the caller's transaction, without an answer (an expired
 * record counts as absent). A concurrent same-key transaction waits on the
 * primary key until this one ends, then sees `PENDING` (or, had this one
 * rolled back, binds itself).
 */
export async function bindIdempotencyKey(
  trx: Kysely<Database>,
  request: IdempotencyRequest,
): Promise<IdempotencyBinding> {
  const keyRecord = prepared(request);
  const { keyHash, intentHash, fields } = keyRecord;
  if (await claimKey(trx, request, keyRecord)) return { kind: 'BOUND' };
  return existingBinding(trx, request, keyHash, intentHash, fields);
}

/** Records the 2xx answer of a bound key in the caller's transaction (a settle), kept as any key's answer is. */
export async function recordIdempotentAnswer(
  trx: Kysely<Database>,
  binding: Pick<IdempotencyRequest, 'organizationId' | 'operation'> & { keyHash: string },
  response: IdempotentResponse<unknown>,
): Promise<void> {
  await trx
    .updateTable('idempotency_keys')
    .set({ response_status: response.status, response_body: canonicalJson(response.body) })
    .where('organization_id', '=', binding.organizationId)
    .where('operation', '=', binding.operation)
    .where('key_hash', '=', binding.keyHash)
    .where('response_status', 'is', null)
    .execute();
}

/** Releases a bound key that got no success (only successes are recorded): a retry runs anew. */
export async function releaseIdempotencyKey(
  trx: Kysely<Database>,
  binding: Pick<IdempotencyRequest, 'organizationId' | 'operation'> & { keyHash: string },
): Promise<void> {
  await trx
    .deleteFrom('idempotency_keys')
    .where('organization_id', '=', binding.organizationId)
    .where('operation', '=', binding.operation)
    .where('key_hash', '=', binding.keyHash)
    .where('response_status', 'is', null)
    .execute();
}
