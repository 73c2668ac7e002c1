import { booleanQuerySchema, cursorSchema, limitSchema } from '@commerce/core';
import type { AuditActor } from '@commerce/db';
import { z } from 'zod';

/** Who changes the organization's CMS pages, and when. */
export interface PageContext {
  organizationId: string;
  actor: AuditActor;
  at: Date;
}

export const PAGE_STATUSES = ['PUBLISHED', 'DRAFT'] as const;
export type PageStatus = (typeof PAGE_STATUSES)[number];

export const MAX_PAGE_CONTENT_LENGTH = 200_000;

export const pageSlugSchema = z
  .string()
  .min(1)
  .max(100)
  .regex(
    /^[a-z0-9]+(?:-[a-z0-9]+)*$/,
    'must be lowercase letters and digits in groups joined by single hyphens',
  )
  .describe('Unique per organization; lowercase letters and digits, groups joined by single hyphens');

export const pageIdSchema = z.string().min(1).max(64).describe('Page id (`pag_…`)');

const titleSchema = z.string().trim().min(1).max(200);
const contentSchema = z
  .string()
  .max(MAX_PAGE_CONTENT_LENGTH)
  .describe(
    'HTML, at most 200,000 characters, sanitised on write: only formatting tags are kept (see the page guide); scripts, styles, frames, event handlers and URLs other than http, https, mailto, tel and relative ones are removed',
  );
const excerptSchema = z.string().max(1000);

const timestamps = {
  publishedAt: z.iso
    .datetime()
    .nullable()
    .describe('When the page was first published; null until then, kept afterwards'),
  createdAt: z.iso.datetime(),
  updatedAt: z.iso.datetime(),
};

export const cmsPageSchema = z
  .object({
    id: z.string(),
    slug: z.string(),
    title: z.string(),
    content: z.string().describe('Sanitised HTML'),
    excerpt: z.string().nullable(),
    status: z.enum(PAGE_STATUSES),
    archivedAt: z.iso.datetime().nullable(),
    ...timestamps,
  })
  .meta({ id: 'CmsPage' });
export type CmsPageRead = z.infer<typeof cmsPageSchema>;

/** A page in a merchant list: everything but the content. */
export const cmsPageSummarySchema = cmsPageSchema.omit({ content: true }).meta({ id: 'CmsPageSummary' });
export type CmsPageSummaryRead = z.infer<typeof cmsPageSummarySchema>;

export const publicCmsPageSchema = z
  .object({
    id: z.string(),
    slug: z.string(),
    title: z.string(),
    content: z.string().describe('Sanitised HTML'),
    excerpt: z.string().nullable(),
    ...timestamps,
  })
  .meta({ id: 'PublicCmsPage' });
export type PublicCmsPageRead = z.infer<typeof publicCmsPageSchema>;

/** A page in the storefront list: everything but the content. */
export const publicCmsPageSummarySchema = publicCmsPageSchema
  .omit({ content: true })
  .meta({ id: 'PublicCmsPageSummary' });
export type PublicCmsPageSummaryRead = z.infer<typeof publicCmsPageSummarySchema>;

export const createPageInputSchema = z.strictObject({
  title: titleSchema,
  slug: pageSlugSchema,
  content: contentSchema,
  status: z.enum(PAGE_STATUSES),
  excerpt: excerptSchema.nullable().optional(),
});
export type CreatePageInput = z.infer<typeof createPageInputSchema>;

export const updatePageChangesSchema = z.strictObject({
  title: titleSchema.optional(),
  slug: pageSlugSchema.optional(),
  content: contentSchema.optional(),
  status: z.enum(PAGE_STATUSES).optional(),
  excerpt: excerptSchema.nullable().optional().describe('`null` clears it'),
});
export type UpdatePageChanges = z.infer<typeof updatePageChangesSchema>;

/** The PATCH input: the path's `id` beside the body's changes. */
export const updatePageInputSchema = updatePageChangesSchema.extend({ id: pageIdSchema });

/** A read's path input (query parameters it does not know are ignored). */
export const pageIdInputSchema = z.object({ id: pageIdSchema });
/** A body-less action's input: the path's id, and an empty body. */
export const pageActionInputSchema = z.strictObject({ id: pageIdSchema });

export const pageListQuerySchema = z.object({
  limit: limitSchema,
  cursor: cursorSchema.optional().describe('The `nextCursor` of the previous page (a page id)'),
  archived: booleanQuerySchema
    .optional()
    .describe('`true` includes archived pages; hidden by default (true/1/yes, false/0/no)'),
  status: z.enum(PAGE_STATUSES).optional(),
});
export type PageListQuery = z.output<typeof pageListQuerySchema>;

export const publicPageListQuerySchema = z.object({
  limit: limitSchema,
  cursor: cursorSchema.optional().describe('The id of the last page of the previous page of results'),
});
export type PublicPageListQuery = z.output<typeof publicPageListQuerySchema>;

export const publicPageSlugInputSchema = z.object({
  slug: z.string().min(1).max(200).describe('The page slug'),
});
