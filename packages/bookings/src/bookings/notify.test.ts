import { hashToken, isTokenOf } from '@commerce/core';
import type { Database, DatabaseHandle } from '@commerce/db';
import { createTestDatabase, testDatabaseKind } from '@commerce/db/testing';
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertOrganization, insertResource, writeContext } from '../../test/factories.ts';
import { createServiceInputSchema } from '../services/schemas.ts';
import { createService } from '../services/write-service.ts';
import { issueManagementToken } from './management-tokens.ts';
import { bookingEmailRecipientKey, notifyBookingCustomer, notifyBookingMerchant } from './notify.ts';

let handle: DatabaseHandle;
let db: Kysely<Database>;
beforeAll(async () => {
  handle = await createTestDatabase();
  db = handle.db;
});
afterAll(async () => {
  await handle.close();
});

const NOW = new Date('2026-07-01T08:00:00.000Z');
const EMAIL = { emailFrom: 'Shop <no-reply@shop.example>', linkBase: 'https://shop.example' };

/** A booking row written directly: these tests are about its emails and tokens, not how it was made. */
async function booking(label: string, settings?: { notifications?: object; business_profile?: object }) {
  const organizationId = await insertOrganization(db, label);
  const resource = await insertResource(db, organizationId, { capacity: 1 });
  const service = await createService(
    db,
    writeContext(organizationId, NOW),
    createServiceInputSchema.parse({
      slug: 'tour',
      name: 'Kayak tour',
      status: 'DRAFT',
      periodMode: 'FIXED_DURATION',
      timezone: 'Europe/Lisbon',
      durations: { choicesMinutes: [60] },
      requirements: [{ name: 'Kayaks', resourceIds: [resource], units: { mode: 'PER_PARTICIPANT' } }],
    }),
    { currency: 'EUR' },
  );
  const id = `bkg_${label.replace(/-/g, '_')}`;
  await db
    .insertInto('bookings')
    .values({
      organization_id: organizationId,
      id,
      code: 'BK-7K3M9Q2T',
      service_id: service.id,
      status: 'CONFIRMED',
      starts_at: new Date('2026-07-02T09:00:00Z'),
      ends_at: new Date('2026-07-02T10:00:00Z'),
      quantity: 1,
      timezone: 'Europe/Lisbon',
      customer_name: 'Ada Lovelace',
      customer_email: 'ada@example.com',
      snapshot: JSON.stringify({ name: 'Kayak tour (as booked)' }),
      currency: 'EUR',
      subtotal_in_cents: 0,
      total_in_cents: 0,
      amount_due_now_in_cents: 0,
      created_at: NOW,
      updated_at: NOW,
    })
    .execute();
  if (settings) {
    await db
      .insertInto('organization_settings')
      .values({
        organization_id: organizationId,
        notifications: JSON.stringify(settings.notifications ?? {}),
        business_profile: JSON.stringify(settings.business_profile ?? {}),
        created_at: NOW,
        updated_at: NOW,
      })
      .execute();
  }
  return { organizationId, id };
}

const outbox = (organizationId: string) =>
  db
    .selectFrom('outbox')
    .select(['metadata', 'payload'])
    .where('organization_id', '=', organizationId)
    .orderBy('id')
    .execute()
    .then((rows) =>
      rows.map((row) => ({
        metadata: row.metadata as Record<string, unknown>,
        payload: row.payload as { to: string; subject: string; text: string; html: string },
      })),
    );

describe(`booking emails and management tokens (${testDatabaseKind})`, () => {
  it('issues an m1_ stored as its hash, expiring 30 days after the end, and revokes the previous unused one', async () => {
    const { organizationId, id } = await booking('tokens');
    const ctx = { organizationId, at: NOW };
    const endsAt = new Date('2026-07-02T10:00:00Z');
    const first = await issueManagementToken(db, ctx, { id, endsAt });
    // A consumed token keeps its record (its mutation replays) and is not revoked.
    const consumed = await issueManagementToken(db, ctx, { id, endsAt });
    await db
      .updateTable('booking_management_tokens')
      .set({ consumed_at: NOW })
      .where('token_hash', '=', hashToken(consumed))
      .execute();
    const second = await issueManagementToken(
      db,
      { organizationId, at: new Date(NOW.getTime() + 1000) },
      {
        id,
        endsAt,
      },
    );
    expect(isTokenOf('bookingManagement', second)).toBe(true);
    const rows = await db
      .selectFrom('booking_management_tokens')
      .select(['token_hash', 'revoked_at', 'consumed_at', 'expires_at'])
      .where('booking_id', '=', id)
      .execute();
    const byHash = new Map(rows.map((row) => [row.token_hash, row]));
    expect(byHash.get(hashToken(first))?.revoked_at).toEqual(NOW);
    expect(byHash.get(hashToken(consumed))?.revoked_at).toBeNull();
    expect(byHash.get(hashToken(second))).toMatchObject({
      revoked_at: null,
      expires_at: new Date('2026-08-01T10:00:00Z'),
    });
    expect(rows.some((row) => row.token_hash === second)).toBe(false);
  });

  it('writes the customer email with the booking merge variables in the default copy', async () => {
    const { organizationId, id } = await booking('customer-email');
    await notifyBookingCustomer(db, { organizationId, at: NOW, email: EMAIL }, id, 'CANCELLED', {
      message: 'The river is closed.',
    });
    const [email] = await outbox(organizationId);
    expect(email!.metadata).toMatchObject({
      templateType: 'BOOKING_NOTIFICATION',
      bookingId: id,
      event: 'CANCELLED',
    });
    expect(email!.payload.to).toBe('ada@example.com');
    expect(email!.payload.subject).toBe('Booking cancelled: Kayak tour (as booked) (BK-7K3M9Q2T)');
    expect(email!.payload.text).toContain('The river is closed.');
    expect(email!.payload.text).toContain(
      'July 2, 2026 at 10:00 AM to July 2, 2026 at 11:00 AM (Europe/Lisbon)',
    );
    expect(email!.payload.text).toMatch(/https:\/\/shop\.example\/bookings\/manage\/m1_[A-Za-z0-9_-]{43}/);
    // Nothing secret in the metadata kept after delivery.
    expect(JSON.stringify(email!.metadata)).not.toContain('m1_');
  });

  it('labels the button by what it opens: "Pay now" for the payment link, "View booking" otherwise', async () => {
    const { organizationId, id } = await booking('button-label');
    const ctx = { organizationId, at: NOW, email: EMAIL, sentByMerchant: true };
    const paymentUrl = 'https://shop.example/checkout/pay?token=c1_label';
    await notifyBookingCustomer(db, ctx, id, 'PAYMENT_REQUIRED', { paymentUrl });
    await notifyBookingCustomer(db, ctx, id, 'CONFIRMED');
    const [required, confirmed] = (await outbox(organizationId)).map((email) => email.payload);
    expect(required!.text).toContain(`Pay now: ${paymentUrl}`);
    expect(required!.html).toMatch(
      new RegExp(`<a href="${paymentUrl.replaceAll('?', '\\?')}"[^>]*>Pay now</a>`),
    );
    expect(required!.text).not.toContain('View booking');
    expect(confirmed!.text).toMatch(/View booking: https:\/\/shop\.example\/bookings\/manage\/m1_/);
  });

  it('sends merchant emails to notifications.bookingEmail, else the support email, else nowhere', async () => {
    const both = await booking('merchant-both', {
      notifications: { bookingEmail: 'desk@shop.example' },
      business_profile: { supportEmail: 'help@shop.example' },
    });
    const support = await booking('merchant-support', {
      business_profile: { supportEmail: 'help@shop.example' },
    });
    const none = await booking('merchant-none');
    for (const { organizationId, id } of [both, support, none])
      await notifyBookingMerchant(db, { organizationId, at: NOW, email: EMAIL }, id, 'NEW_BOOKING');
    expect((await outbox(both.organizationId)).map((email) => email.payload.to)).toEqual([
      'desk@shop.example',
    ]);
    expect((await outbox(support.organizationId)).map((email) => email.payload.to)).toEqual([
      'help@shop.example',
    ]);
    expect(await outbox(none.organizationId)).toEqual([]);
    const [email] = await outbox(both.organizationId);
    expect(email!.payload.text).toContain(`https://shop.example/admin/bookings/${both.id}`);
  });
});

describe(`booking emails capped per recipient (${testDatabaseKind})`, () => {
  const paymentRequired = (organizationId: string, id: string, at: Date, extra: object = {}) =>
    db.transaction().execute((trx) =>
      notifyBookingCustomer(trx, { organizationId, at, email: EMAIL, ...extra }, id, 'PAYMENT_REQUIRED', {
        paymentUrl: 'https://shop.example/checkout/pay?token=c1_x',
      }),
    );
  const limitRow = (organizationId: string) =>
    db
      .selectFrom('booking_email_limits')
      .selectAll()
      .where('organization_id', '=', organizationId)
      .where('recipient_key', '=', hashToken('ada@example.com'))
      .executeTakeFirstOrThrow();

  it('sends 10 an hour to one address; the 11th is held back, counted and audited once; a merchant’s action still sends; the next hour sends again', async () => {
    const { organizationId, id } = await booking('mail-cap');
    for (let index = 0; index < 11; index += 1)
      await paymentRequired(organizationId, id, new Date(NOW.getTime() + index * 1000));
    expect(await outbox(organizationId)).toHaveLength(10);
    expect(await limitRow(organizationId)).toMatchObject({
      sent_in_window: 10,
      held_in_window: 1,
      held_total: 1,
    });
    // The held email issued no new management link: the last one sent stays usable.
    const live = await db
      .selectFrom('booking_management_tokens')
      .select('token_hash')
      .where('organization_id', '=', organizationId)
      .where('revoked_at', 'is', null)
      .execute();
    expect(live).toHaveLength(1);
    await paymentRequired(organizationId, id, new Date(NOW.getTime() + 20_000));
    expect(await limitRow(organizationId)).toMatchObject({ held_in_window: 2, held_total: 2 });
    const audits = await db
      .selectFrom('audit_logs')
      .select(['action', 'target_id', 'metadata'])
      .where('organization_id', '=', organizationId)
      .where('action', '=', 'booking.emails_held')
      .execute();
    expect(audits).toEqual([
      {
        action: 'booking.emails_held',
        target_id: id,
        metadata: { event: 'PAYMENT_REQUIRED', limitPerHour: 10, windowStartedAt: NOW.toISOString() },
      },
    ]);
    // A merchant's own action is neither capped nor counted.
    await paymentRequired(organizationId, id, new Date(NOW.getTime() + 30_000), { sentByMerchant: true });
    expect(await outbox(organizationId)).toHaveLength(11);
    expect(await limitRow(organizationId)).toMatchObject({ sent_in_window: 10, held_total: 2 });
    // An hour after the window opened, a new window sends again.
    await paymentRequired(organizationId, id, new Date(NOW.getTime() + 3_600_000));
    expect(await outbox(organizationId)).toHaveLength(12);
    expect(await limitRow(organizationId)).toMatchObject({
      sent_in_window: 1,
      held_in_window: 0,
      held_total: 2,
    });
  });

  it("keeps the Payment required email's management link working after the payment's CONFIRMED", async () => {
    const { organizationId, id } = await booking('kept-link');
    const ctx = { organizationId, at: NOW, email: EMAIL };
    await db.transaction().execute((trx) =>
      notifyBookingCustomer(trx, ctx, id, 'PAYMENT_REQUIRED', {
        paymentUrl: 'https://shop.example/checkout/pay?token=c1_x',
      }),
    );
    const paid = new Date(NOW.getTime() + 60_000);
    await db
      .transaction()
      .execute((trx) =>
        notifyBookingCustomer(trx, { ...ctx, at: paid }, id, 'CONFIRMED', { afterKeptPayment: true }),
      );
    const emails = await outbox(organizationId);
    const tokens = emails.map(
      (email) => /\/bookings\/manage\/(m1_[A-Za-z0-9_-]+)/.exec(email.payload.text)?.[1],
    );
    expect(tokens).toHaveLength(2);
    for (const token of tokens) {
      const row = await db
        .selectFrom('booking_management_tokens')
        .select(['revoked_at', 'expires_at'])
        .where('token_hash', '=', hashToken(token!))
        .executeTakeFirstOrThrow();
      expect(row.revoked_at).toBeNull();
    }
    // Any other email still carries the one link that works.
    await db
      .transaction()
      .execute((trx) =>
        notifyBookingCustomer(
          trx,
          { ...ctx, at: new Date(paid.getTime() + 1000), sentByMerchant: true },
          id,
          'CANCELLED',
        ),
      );
    const revoked = await db
      .selectFrom('booking_management_tokens')
      .select('revoked_at')
      .where('token_hash', '=', hashToken(tokens[0]!))
      .executeTakeFirstOrThrow();
    expect(revoked.revoked_at).not.toBeNull();
  });

  it('counts the emails of a booking whose email was proven apart, and never holds back the CONFIRMED of a kept payment', async () => {
    const { organizationId, id } = await booking('mail-cap-proven');
    for (let index = 0; index < 11; index += 1)
      await paymentRequired(organizationId, id, new Date(NOW.getTime() + index * 1000));
    expect(await outbox(organizationId)).toHaveLength(10);
    // The confirmation that follows a payment the booking kept goes, uncounted.
    await db.transaction().execute((trx) =>
      notifyBookingCustomer(trx, { organizationId, at: NOW, email: EMAIL }, id, 'CONFIRMED', {
        afterKeptPayment: true,
      }),
    );
    expect(await outbox(organizationId)).toHaveLength(11);
    expect(await limitRow(organizationId)).toMatchObject({ sent_in_window: 10, held_total: 1 });
    // The same address's proven bookings count on their own row: the unproven cap holds none back.
    await db.updateTable('bookings').set({ email_proven: true }).where('id', '=', id).execute();
    await paymentRequired(organizationId, id, new Date(NOW.getTime() + 20_000));
    expect(await outbox(organizationId)).toHaveLength(12);
    const proven = await db
      .selectFrom('booking_email_limits')
      .select(['sent_in_window', 'held_total'])
      .where('organization_id', '=', organizationId)
      .where('recipient_key', '=', bookingEmailRecipientKey('Ada@Example.com', true))
      .executeTakeFirstOrThrow();
    expect(proven).toEqual({ sent_in_window: 1, held_total: 0 });
  });

  it('takes the cap from configuration, per tenant and recipient', async () => {
    const { organizationId, id } = await booking('mail-cap-configured');
    const other = await booking('mail-cap-other-tenant');
    const email = { ...EMAIL, bookingEmailsPerRecipientPerHour: 2 };
    for (let index = 0; index < 3; index += 1)
      await paymentRequired(organizationId, id, new Date(NOW.getTime() + index * 1000), { email });
    expect(await outbox(organizationId)).toHaveLength(2);
    await paymentRequired(other.organizationId, other.id, NOW, { email });
    expect(await outbox(other.organizationId)).toHaveLength(1);
  });

  it(`never passes the cap under 20 concurrent changes (${testDatabaseKind})`, async () => {
    const { organizationId, id } = await booking('mail-cap-race');
    const outcomes = await Promise.allSettled(
      Array.from({ length: 20 }, (_, index) =>
        paymentRequired(organizationId, id, new Date(NOW.getTime() + index)),
      ),
    );
    expect(outcomes.filter((outcome) => outcome.status === 'rejected')).toEqual([]);
    expect(await outbox(organizationId)).toHaveLength(10);
    expect(await limitRow(organizationId)).toMatchObject({ sent_in_window: 10, held_total: 10 });
  });
});
