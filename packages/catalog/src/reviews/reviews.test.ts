import { AppError, ManualClock } from '@commerce/core';
import type { DatabaseHandle, OrderStatus, PaymentStatus } from '@commerce/db';
import { createTestDatabase, testDatabaseKind } from '@commerce/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listReviews, moderateReview } from './moderate-reviews.ts';
import { listPublicReviews, submitReview } from './public-reviews.ts';
import { reviewListQuerySchema, type SubmitReviewInput } from './schemas.ts';

let handle: DatabaseHandle;
const clock = new ManualClock('2026-06-01T10:00:00.000Z');
const ORG = 'org_reviews';
const OTHER = 'org_reviews_other';
const actor = { userId: 'usr_moderator', email: 'mod@shop.test' };
let itemSequence = 0;

beforeAll(async () => {
  handle = await createTestDatabase({ poolSize: 20 });
  await handle.db
    .insertInto('organizations')
    .values([
      { id: ORG, slug: 'reviews', name: 'Reviews' },
      { id: OTHER, slug: 'reviews-other', name: 'Other' },
    ])
    .execute();
});
afterAll(async () => {
  await handle.close();
});

async function item(options: { status?: 'ACTIVE' | 'DRAFT'; archived?: boolean; org?: string } = {}) {
  itemSequence += 1;
  const id = `itm_review_${itemSequence}`;
  await handle.db
    .insertInto('items')
    .values({
      organization_id: options.org ?? ORG,
      id,
      slug: `item-${itemSequence}`,
      name: `Item ${itemSequence}`,
      type: 'SALE',
      status: options.archived ? 'ARCHIVED' : (options.status ?? 'ACTIVE'),
      price_in_cents: null,
      description: null,
      archived_at: options.archived ? clock.now() : null,
    })
    .execute();
  return id;
}

const review = (overrides: Partial<SubmitReviewInput> = {}): SubmitReviewInput => ({
  rating: 5,
  authorName: 'Ada',
  authorEmail: 'ada@example.com',
  title: 'Great',
  body: 'Would buy again',
  ...overrides,
});

const submit = (itemId: string, input: SubmitReviewInput, org = ORG) => {
  clock.advance(1000);
  return submitReview(handle.db, { organizationId: org, itemId, at: clock.now() }, input);
};

async function failure(promise: Promise<unknown>): Promise<AppError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(AppError);
  return error as AppError;
}

const pending = (itemId: string) =>
  listReviews(handle.db, ORG, reviewListQuerySchema.parse({ itemId })).then((page) => page.data);

const publishAll = async (itemId: string) => {
  for (const row of await pending(itemId)) {
    await moderateReview(handle.db, { organizationId: ORG, actor, at: clock.now() }, row.id, 'publish');
  }
};

describe('submitReview', () => {
  it('records a pending review that public reads do not show', async () => {
    const itemId = await item();
    await submit(itemId, review());
    const queue = await pending(itemId);
    expect(queue).toHaveLength(1);
    expect(queue[0]).toMatchObject({
      status: 'PENDING',
      authorEmail: 'ada@example.com',
      verifiedPurchase: false,
    });
    expect(await listPublicReviews(handle.db, ORG, itemId, { limit: 50 })).toEqual({
      reviews: [],
      nextCursor: null,
      ratingAverage: null,
      ratingCount: 0,
    });
  });

  it('refuses a second review by the same email for the same item, whatever its case', async () => {
    const itemId = await item();
    await submit(itemId, review());
    expect((await failure(submit(itemId, review({ authorEmail: 'ADA@Example.com' })))).code).toBe(
      'DUPLICATE_REVIEW',
    );
    // Another item, or another email, is fine.
    await submit(await item(), review());
    await submit(itemId, review({ authorEmail: 'bob@example.com' }));
  });

  it('answers 404 for a draft, archived, unknown or foreign item', async () => {
    for (const itemId of [
      await item({ status: 'DRAFT' }),
      await item({ archived: true }),
      'itm_unknown',
      await item({ org: OTHER }),
    ]) {
      expect((await failure(submit(itemId, review()))).code).toBe('RESOURCE_NOT_FOUND');
      expect((await failure(listPublicReviews(handle.db, ORG, itemId, { limit: 50 }))).code).toBe(
        'RESOURCE_NOT_FOUND',
      );
    }
  });

  it.skipIf(testDatabaseKind !== 'postgres')(
    'keeps one review when the same email submits concurrently',
    async () => {
      const itemId = await item();
      const attempts = await Promise.allSettled(
        Array.from({ length: 10 }, () =>
          submitReview(handle.db, { organizationId: ORG, itemId, at: clock.now() }, review()),
        ),
      );
      const refused = attempts.filter((attempt) => attempt.status === 'rejected');
      expect(attempts.filter((attempt) => attempt.status === 'fulfilled')).toHaveLength(1);
      expect(refused.every((attempt) => (attempt.reason as AppError).code === 'DUPLICATE_REVIEW')).toBe(true);
      expect(await pending(itemId)).toHaveLength(1);
    },
  );
});

let orderSequence = 0;

/** An order of `itemId` placed with `email`, written straight into the orders tables. */
async function placeOrder(
  itemId: string,
  email: string,
  options: {
    source?: 'LEGACY_ORDER' | 'CHECKOUT';
    status?: OrderStatus;
    paymentStatus?: PaymentStatus;
    org?: string;
  } = {},
) {
  orderSequence += 1;
  const org = options.org ?? ORG;
  const source = options.source ?? 'CHECKOUT';
  const paymentStatus = options.paymentStatus ?? (source === 'CHECKOUT' ? 'PAID' : 'NOT_REQUIRED');
  const salesRecordId = `sal_review_${orderSequence}`;
  const customer = { customer_name: 'Buyer', customer_email: email, customer_phone: null };
  const totals = { subtotal_in_cents: 100, total_in_cents: 100 };
  await handle.db
    .insertInto('sales_records')
    .values({
      organization_id: org,
      id: salesRecordId,
      source,
      currency: 'USD',
      ...customer,
      ...totals,
      payment_status: paymentStatus,
    })
    .execute();
  await handle.db
    .insertInto('sales_record_lines')
    .values({
      organization_id: org,
      id: `sli_review_${orderSequence}`,
      sales_record_id: salesRecordId,
      position: 0,
      type: 'PRODUCT',
      item_id: itemId,
      variant_id: null,
      name: 'Thing',
      quantity: 1,
      unit_price_in_cents: 100,
      total_in_cents: 100,
    })
    .execute();
  await handle.db
    .insertInto('orders')
    .values({
      organization_id: org,
      id: `ord_review_${orderSequence}`,
      sales_record_id: salesRecordId,
      order_reference: null,
      order_number: orderSequence,
      status: options.status ?? 'PENDING',
      payment_status: paymentStatus,
      currency: 'USD',
      ...customer,
      notes: null,
      item_count: 1,
      ...totals,
      shipping_in_cents: 0,
      tax_in_cents: 0,
      discount_in_cents: 0,
    })
    .execute();
}

describe('verified purchase', () => {
  const verifiedOf = async (itemId: string, email: string) =>
    (await pending(itemId)).find((row) => row.authorEmail === email)?.verifiedPurchase;

  it('is set for a paid checkout order of the item, whatever the case of the email', async () => {
    const itemId = await item();
    await placeOrder(itemId, 'Buyer@Example.com');
    await submit(itemId, review({ authorEmail: 'buyer@example.COM' }));
    expect(await verifiedOf(itemId, 'buyer@example.com')).toBe(true);
  });

  it('is set for a legacy order only once the merchant moved it to COMPLETED', async () => {
    const itemId = await item();
    await placeOrder(itemId, 'completed@example.com', { source: 'LEGACY_ORDER', status: 'COMPLETED' });
    for (const status of ['PENDING', 'CONFIRMED', 'PROCESSING', 'CANCELLED'] as const) {
      await placeOrder(itemId, `legacy-${status.toLowerCase()}@example.com`, {
        source: 'LEGACY_ORDER',
        status,
      });
    }
    await submit(itemId, review({ authorEmail: 'completed@example.com' }));
    expect(await verifiedOf(itemId, 'completed@example.com')).toBe(true);
    for (const status of ['pending', 'confirmed', 'processing', 'cancelled']) {
      const email = `legacy-${status}@example.com`;
      await submit(itemId, review({ authorEmail: email }));
      expect(await verifiedOf(itemId, email), email).toBe(false);
    }
  });

  it('is not set for another email, another item, a cancelled, unpaid, failed or free checkout, or an order of another organization', async () => {
    const itemId = await item();
    const otherItemId = await item();
    const foreignItemId = await item({ org: OTHER });
    await placeOrder(otherItemId, 'other-item@example.com');
    await placeOrder(itemId, 'cancelled@example.com', { status: 'CANCELLED' });
    await placeOrder(itemId, 'unpaid@example.com', { paymentStatus: 'AWAITING_PAYMENT' });
    await placeOrder(itemId, 'failed@example.com', { paymentStatus: 'FAILED' });
    await placeOrder(itemId, 'free@example.com', { paymentStatus: 'NOT_REQUIRED' });
    await placeOrder(foreignItemId, 'foreign@example.com', { org: OTHER });
    await placeOrder(itemId, 'buyer@example.com');
    for (const email of [
      'other-item@example.com',
      'cancelled@example.com',
      'unpaid@example.com',
      'failed@example.com',
      'free@example.com',
      'foreign@example.com',
      'stranger@example.com',
    ]) {
      await submit(itemId, review({ authorEmail: email }));
      expect(await verifiedOf(itemId, email), email).toBe(false);
    }
    await submit(itemId, review({ authorEmail: 'buyer@example.com' }));
    expect(await verifiedOf(itemId, 'buyer@example.com')).toBe(true);
  });

  it('shows on the published review', async () => {
    const itemId = await item();
    await placeOrder(itemId, 'ada@example.com');
    await submit(itemId, review());
    await publishAll(itemId);
    const page = await listPublicReviews(handle.db, ORG, itemId, { limit: 50 });
    expect(page.reviews.map((row) => row.verifiedPurchase)).toEqual([true]);
  });
});

describe('listPublicReviews', () => {
  it('shows published reviews newest first without emails, with aggregates over every published review', async () => {
    const itemId = await item();
    await submit(itemId, review({ rating: 5, authorEmail: 'a@example.com', authorName: 'A' }));
    await submit(itemId, review({ rating: 4, authorEmail: 'b@example.com', authorName: 'B' }));
    await submit(itemId, review({ rating: 4, authorEmail: 'c@example.com', authorName: 'C' }));
    await submit(itemId, review({ rating: 1, authorEmail: 'd@example.com', authorName: 'D' }));
    await publishAll(itemId);
    const rejected = (
      await listReviews(handle.db, ORG, reviewListQuerySchema.parse({ itemId, status: 'PUBLISHED' }))
    ).data[0]!;
    await moderateReview(handle.db, { organizationId: ORG, actor, at: clock.now() }, rejected.id, 'reject');

    const first = await listPublicReviews(handle.db, ORG, itemId, { limit: 2 });
    expect(first.reviews.map((row) => row.authorName)).toEqual(['C', 'B']);
    expect(first.ratingCount).toBe(3);
    expect(first.ratingAverage).toBe(4.33);
    expect(JSON.stringify(first)).not.toContain('@example.com');
    expect(Object.keys(first.reviews[0]!).sort()).toEqual(
      ['authorName', 'body', 'createdAt', 'id', 'rating', 'title', 'verifiedPurchase'].sort(),
    );

    const second = await listPublicReviews(handle.db, ORG, itemId, { limit: 2, cursor: first.nextCursor! });
    expect(second.reviews.map((row) => row.authorName)).toEqual(['A']);
    expect(second.nextCursor).toBeNull();
  });
});

describe('moderateReview', () => {
  it('publishes a pending review once, audits it, and refuses to publish a rejected one', async () => {
    const itemId = await item();
    await submit(itemId, review());
    const [queued] = await pending(itemId);
    // Each decision a second later, so the audit records sort by time.
    const scope = () => {
      clock.advance(1000);
      return { organizationId: ORG, actor, at: clock.now() };
    };

    const published = await moderateReview(handle.db, scope(), queued!.id, 'publish');
    expect(published).toMatchObject({ status: 'PUBLISHED', moderatedBy: actor.userId });
    expect((await moderateReview(handle.db, scope(), queued!.id, 'publish')).status).toBe('PUBLISHED');
    await moderateReview(handle.db, scope(), queued!.id, 'reject');
    expect((await failure(moderateReview(handle.db, scope(), queued!.id, 'publish'))).code).toBe(
      'INVALID_STATE_TRANSITION',
    );

    const audits = await handle.db
      .selectFrom('audit_logs')
      .select(['action', 'metadata'])
      .where('organization_id', '=', ORG)
      .where('target_id', '=', queued!.id)
      .orderBy('created_at')
      .orderBy('id')
      .execute();
    expect(audits).toEqual([
      { action: 'review.published', metadata: { itemId, previousStatus: 'PENDING' } },
      { action: 'review.rejected', metadata: { itemId, previousStatus: 'PUBLISHED' } },
    ]);
  });

  it("answers 404 for another organization's review", async () => {
    const foreignItem = await item({ org: OTHER });
    await submit(foreignItem, review(), OTHER);
    const [foreign] = (await listReviews(handle.db, OTHER, reviewListQuerySchema.parse({}))).data;
    const error = await failure(
      moderateReview(handle.db, { organizationId: ORG, actor, at: clock.now() }, foreign!.id, 'publish'),
    );
    expect(error.code).toBe('RESOURCE_NOT_FOUND');
  });
});
