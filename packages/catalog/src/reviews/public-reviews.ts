import { AppError, keysetAfter, newId } from '@commerce/core';
import { type Database, isUniqueViolation } from '@commerce/db';
import { type Kysely, sql } from 'kysely';
import { toPublicReviewRead } from './review-read.ts';
import type { PublicReviewPage, SubmitReviewInput } from './schemas.ts';
import { hasPurchasedItem } from './verified-purchase.ts';

/** The item a shopper can see: ACTIVE and not archived; anything else is a neutral 404. */
async function requirePublicItem(
  db: Kysely<Database>,
  organizationId: string,
  itemId: string,
): Promise<void> {
  const item = await db
    .selectFrom('items')
    .select('id')
    .where('organization_id', '=', organizationId)
    .where('id', '=', itemId)
    .where('status', '=', 'ACTIVE')
    .where('archived_at', 'is', null)
    .executeTakeFirst();
  if (!item) throw AppError.notFound('Item not found');
}

/**
 * Records a shopper's review, pending until the merchant publishes it. One
 * review per email and item, decided by the unique index so that concurrent
 * submissions give one review and DUPLICATE_REVIEW for the rest.
 * `verifiedPurchase` is set when the email has a non-cancelled, paid (or
 * free) order containing the item.
 */
export async function submitReview(
  db: Kysely<Database>,
  scope: { organizationId: string; itemId: string; at: Date },
  input: SubmitReviewInput,
): Promise<void> {
  await requirePublicItem(db, scope.organizationId, scope.itemId);
  const authorEmail = input.authorEmail.toLowerCase();
  const verifiedPurchase = await hasPurchasedItem(db, {
    organizationId: scope.organizationId,
    itemId: scope.itemId,
    email: authorEmail,
  });
  try {
    await db
      .insertInto('reviews')
      .values({
        organization_id: scope.organizationId,
        id: newId('rev', scope.at),
        item_id: scope.itemId,
        rating: input.rating,
        author_name: input.authorName,
        author_email: authorEmail,
        title: input.title || null,
        body: input.body || null,
        // Decided once, at submission: a later order or cancellation does not change it.
        verified_purchase: verifiedPurchase,
        moderated_by: null,
        moderated_at: null,
        created_at: scope.at,
      })
      .execute();
  } catch (error) {
    if (isUniqueViolation(error, 'reviews_author_key')) {
      throw new AppError('DUPLICATE_REVIEW', 'This email has already reviewed this item');
    }
    throw error;
  }
}

/** Published reviews of a visible item, newest first, with the aggregates over all published reviews. */
export async function listPublicReviews(
  db: Kysely<Database>,
  organizationId: string,
  itemId: string,
  query: { limit: number; cursor?: string | undefined },
): Promise<PublicReviewPage> {
  await requirePublicItem(db, organizationId, itemId);
  const published = db
    .selectFrom('reviews')
    .where('organization_id', '=', organizationId)
    .where('item_id', '=', itemId)
    .where('status', '=', 'PUBLISHED');

  let cursorRow: { created_at: Date; id: string } | undefined;
  if (query.cursor) {
    cursorRow = await published
      .select(['created_at', 'id'])
      .where('id', '=', query.cursor)
      .executeTakeFirst();
    if (!cursorRow)
      throw AppError.validation([{ path: 'cursor', message: 'does not name a published review' }]);
  }
  const [rows, aggregate] = await Promise.all([
    published
      .selectAll()
      .$if(cursorRow !== undefined, (qb) =>
        qb.where((eb) =>
          keysetAfter(eb, [
            { column: 'created_at', direction: 'desc', value: cursorRow!.created_at },
            { column: 'id', direction: 'desc', value: cursorRow!.id },
          ]),
        ),
      )
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(query.limit + 1)
      .execute(),
    published
      .select([sql<string | null>`avg(rating)`.as('average'), sql<string>`count(*)`.as('count')])
      .executeTakeFirstOrThrow(),
  ]);
  const page = rows.slice(0, query.limit);
  return {
    reviews: page.map(toPublicReviewRead),
    nextCursor: rows.length > query.limit ? page[page.length - 1]!.id : null,
    ratingAverage: aggregate.average === null ? null : Math.round(Number(aggregate.average) * 100) / 100,
    ratingCount: Number(aggregate.count),
  };
}
