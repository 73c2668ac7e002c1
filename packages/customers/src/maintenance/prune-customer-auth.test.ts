import { ManualClock, newId } from '@commerce/core';
import {
  claimPaymentWebhookEvent,
  type DatabaseHandle,
  PAYMENT_WEBHOOK_EVENT_RETENTION_MS,
} from '@commerce/db';
import { createTestDatabase } from '@commerce/db/testing';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { upsertVerifiedCustomer } from '../accounts/upsert-verified-customer.ts';
import { createSession, validateSessionToken } from '../sessions/sessions.ts';
import { requestSignIn } from '../sign-in/request-sign-in.ts';
import { runHousekeeping } from './housekeeping.ts';
import { pruneCustomerAuth } from './prune-customer-auth.ts';

let database: DatabaseHandle;
const clock = new ManualClock('2026-11-01T00:00:00.000Z');
let organizationId: string;

beforeAll(async () => {
  database = await createTestDatabase();
  organizationId = newId('org', clock.now());
  await database.db
    .insertInto('organizations')
    .values({ id: organizationId, slug: 'prune-shop', name: 'Prune', created_at: clock.now() })
    .execute();
});
afterAll(async () => {
  await database.close();
});

it('deletes expired sessions and day-old expired challenges, and keeps live ones', async () => {
  const scope = () => ({ organizationId, at: clock.now() });
  const emailScope = () => ({
    ...scope(),
    email: { emailFrom: 'Shop <no-reply@shop.test>', linkBase: 'https://x.test' },
  });
  const customer = await upsertVerifiedCustomer(database.db, scope(), 'old@example.com');
  const old = await createSession(database.db, scope(), customer.id);
  await requestSignIn(database.db, emailScope(), { email: 'old@example.com' }, 'CODE');

  clock.advance(31 * 24 * 60 * 60 * 1000);
  const fresh = await createSession(database.db, scope(), customer.id);
  await requestSignIn(database.db, emailScope(), { email: 'old@example.com' }, 'LINK');

  expect(await pruneCustomerAuth(database.db, clock.now())).toEqual({ sessions: 1, challenges: 1 });
  expect(await validateSessionToken(database.db, scope(), fresh.token)).not.toBeNull();
  expect(await validateSessionToken(database.db, scope(), old.token)).toBeNull();
  const left = await database.db
    .selectFrom('customer_sign_in_challenges')
    .select('link_token_hash')
    .execute();
  expect(left).toHaveLength(1);
  expect(left[0]!.link_token_hash).not.toBeNull();
  expect(await pruneCustomerAuth(database.db, clock.now())).toEqual({ sessions: 0, challenges: 0 });
});

it('runs every retention sweep and keeps what is still live', async () => {
  // Start from no credentials: the test above leaves some behind.
  await database.db.deleteFrom('customer_sessions').execute();
  await database.db.deleteFrom('customer_sign_in_challenges').execute();
  const scope = () => ({ organizationId, at: clock.now() });
  const customer = await upsertVerifiedCustomer(database.db, scope(), 'ada@example.com');
  await createSession(database.db, scope(), customer.id);
  await database.db
    .transaction()
    .execute((trx) =>
      claimPaymentWebhookEvent(
        trx,
        { id: 'evt_old', type: 'payment_intent.succeeded', intentId: 'pi_1' },
        clock.now(),
      ),
    );
  await database.db
    .insertInto('idempotency_keys')
    .values({
      organization_id: organizationId,
      operation: 'POST /public/checkout/sessions/:token/payment-session',
      key_hash: 'a'.repeat(64),
      intent_hash: 'b'.repeat(64),
      intent_fields: JSON.stringify({}),
      response_status: 200,
      response_body: JSON.stringify({}),
      created_at: clock.now(),
      expires_at: new Date(clock.now().getTime() + 24 * 60 * 60 * 1000),
    })
    .execute();

  await database.db
    .insertInto('dev_emails')
    .values({
      organization_id: organizationId,
      id: 'eml_housekeeping',
      outbox_id: 'obx_housekeeping',
      to_address: 'ada@example.com',
      subject: 'Your sign-in code',
      text_body: 'Code 123456',
      created_at: clock.now(),
    })
    .execute();

  expect(await runHousekeeping(database.db, clock.now())).toEqual({
    sessions: 0,
    challenges: 0,
    idempotencyKeys: 0,
    paymentWebhookEvents: 0,
    actionTokens: 0,
    devEmails: 0,
  });
  clock.advance(PAYMENT_WEBHOOK_EVENT_RETENTION_MS + 1000);
  expect(await runHousekeeping(database.db, clock.now())).toEqual({
    sessions: 1,
    challenges: 0,
    idempotencyKeys: 1,
    paymentWebhookEvents: 1,
    actionTokens: 0,
    devEmails: 1,
  });
});
