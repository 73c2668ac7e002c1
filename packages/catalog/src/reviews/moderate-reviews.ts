import { AppError, keysetAfter, type Page, toPage } from '@commerce/core';
import { type AuditActor, type Database, recordAudit } from '@commerce/db';
import type { Kysely } from 'kysely';
import { toReviewRead } from './review-read.ts';
import type { ReviewListQuery, ReviewRead } from './schemas.ts';

/** Reviews of one status (the moderation queue by default), newest first. */
export async function listReviews(
  db: Kysely<Database>,
  organizationId: string,
  query: ReviewListQuery,
): Promise<Page<ReviewRead>> {
  let cursorRow: { created_at: Date; id: string } | undefined;
  if (query.cursor) {
    cursorRow = await db
      .selectFrom('reviews')
      .select(['created_at', 'id'])
      .where('organization_id', '=', organizationId)
      .where('id', '=', query.cursor)
      .executeTakeFirst();
    if (!cursorRow) throw AppError.validation([{ path: 'cursor', message: 'does not name a review' }]);
  }
  const rows = await db
    .selectFrom('reviews')
    .selectAll()
    .where('organization_id', '=', organizationId)
    .where('status', '=', query.status)
    .$if(query.itemId !== undefined, (qb) => qb.where('item_id', '=', query.itemId!))
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
    .execute();
  return toPage(rows.map(toReviewRead), query.limit);
}

type Decision = 'publish' | 'reject';

/**
 * Which states each decision may start from. Publishing is the spec's one
 * transition (pending → published); rejecting takes a pending review out of
 * the queue, or a published one down. Repeating a decision changes nothing.
 */
const ALLOWED_FROM: Record<Decision, { target: 'PUBLISHED' | 'REJECTED'; from: readonly string[] }> = {
  publish: { target: 'PUBLISHED', from: ['PENDING'] },
  reject: { target: 'REJECTED', from: ['PENDING', 'PUBLISHED'] },
};

export async function moderateReview(
  db: Kysely<Database>,
  scope: { organizationId: string; actor: AuditActor; at: Date },
  reviewId: string,
  decision: Decision,
): Promise<ReviewRead> {
  const { target, from } = ALLOWED_FROM[decision];
  return db.transaction().execute(async (trx) => {
    const review = await trx
      .selectFrom('reviews')
      .selectAll()
      .where('organization_id', '=', scope.organizationId)
      .where('id', '=', reviewId)
      .forUpdate()
      .executeTakeFirst();
    if (!review) throw AppError.notFound('Review not found');
    if (review.status === target) return toReviewRead(review);
    if (!from.includes(review.status)) {
      throw new AppError(
        'INVALID_STATE_TRANSITION',
        `A ${review.status.toLowerCase()} review cannot be ${decision}ed`,
      );
    }
    const updated = await trx
      .updateTable('reviews')
      .set({ status: target, moderated_by: scope.actor.userId, moderated_at: scope.at })
      .where('organization_id', '=', scope.organizationId)
      .where('id', '=', reviewId)
      .returningAll()
      .executeTakeFirstOrThrow();
    await recordAudit(trx, {
      organizationId: scope.organizationId,
      actor: scope.actor,
      action: decision === 'publish' ? 'review.published' : 'review.rejected',
      targetType: 'review',
      targetId: reviewId,
      metadata: { itemId: review.item_id, previousStatus: review.status },
      at: scope.at,
    });
    return toReviewRead(updated);
  });
}
