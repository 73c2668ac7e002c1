import { cursorSchema, limitSchema } from '@commerce/core';
import { z } from 'zod';

export const REVIEW_STATUSES = ['PENDING', 'PUBLISHED', 'REJECTED'] as const;

/** The body a shopper submits a review with (docs/catalog.md "Reviews"). */
export const submitReviewInputSchema = z.strictObject({
  rating: z.number().int().min(1).max(5),
  authorName: z.string().trim().min(1).max(80).describe('Shown publicly'),
  authorEmail: z
    .email()
    .max(320)
    .describe('Used only for de-duplication and verified-purchase matching; never returned publicly'),
  title: z.string().trim().max(120).optional(),
  body: z.string().trim().max(4000).optional(),
});
export type SubmitReviewInput = z.infer<typeof submitReviewInputSchema>;

/** A published review as the public reads it: no email, no moderation state. */
export const publicReviewSchema = z
  .object({
    id: z.string(),
    rating: z.number().int(),
    title: z.string().nullable(),
    body: z.string().nullable(),
    authorName: z.string(),
    verifiedPurchase: z.boolean(),
    createdAt: z.iso.datetime(),
  })
  .meta({ id: 'PublicReview' });
export type PublicReviewRead = z.infer<typeof publicReviewSchema>;

export const publicReviewPageSchema = z
  .object({
    reviews: z.array(publicReviewSchema),
    nextCursor: z.string().nullable(),
    ratingAverage: z
      .number()
      .nullable()
      .describe('Mean rating of published reviews; null when none is published'),
    ratingCount: z.number().int(),
  })
  .meta({ id: 'PublicReviewPage' });
export type PublicReviewPage = z.infer<typeof publicReviewPageSchema>;

/** A review as the merchant moderates it. */
export const reviewSchema = publicReviewSchema
  .extend({
    itemId: z.string(),
    authorEmail: z.string(),
    status: z.enum(REVIEW_STATUSES),
    moderatedBy: z.string().nullable(),
    moderatedAt: z.iso.datetime().nullable(),
  })
  .meta({ id: 'Review' });
export type ReviewRead = z.infer<typeof reviewSchema>;

export const reviewListQuerySchema = z.object({
  status: z.enum(REVIEW_STATUSES).default('PENDING').describe('Defaults to PENDING: the moderation queue'),
  itemId: z.string().min(1).max(64).optional(),
  limit: limitSchema,
  cursor: cursorSchema.optional(),
});
export type ReviewListQuery = z.infer<typeof reviewListQuerySchema>;

export const publicReviewQuerySchema = z.object({ limit: limitSchema, cursor: cursorSchema.optional() });
