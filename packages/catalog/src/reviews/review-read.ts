import type { Review } from '@commerce/db';
import type { PublicReviewRead, ReviewRead } from './schemas.ts';

export function toPublicReviewRead(review: Review): PublicReviewRead {
  return {
    id: review.id,
    rating: review.rating,
    title: review.title,
    body: review.body,
    authorName: review.author_name,
    verifiedPurchase: review.verified_purchase,
    createdAt: review.created_at.toISOString(),
  };
}

export function toReviewRead(review: Review): ReviewRead {
  return {
    ...toPublicReviewRead(review),
    itemId: review.item_id,
    authorEmail: review.author_email,
    status: review.status,
    moderatedBy: review.moderated_by,
    moderatedAt: review.moderated_at?.toISOString() ?? null,
  };
}
