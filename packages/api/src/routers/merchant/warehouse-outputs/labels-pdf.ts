import { AppError, isAppError } from '@commerce/core';
import { fileStamp, streamLabelBatch, warehouseSelectionInputSchema } from '@commerce/fulfillment';
import { type RateLimitRule, rateLimitKey } from '@commerce/rate-limit';
import type { ApiContext } from '../../../context.ts';
import { assertRestSurface, type Download, downloadSchema } from '../../../download.ts';
import { writeContext } from '../../../write-context.ts';
import { BASE, OPERATOR, SELECTION, TAGS } from './docs.ts';
import { operator } from './warehouse-access.ts';

/**
 * One labels batch at a time per organization, in every process (the rate-limit store): a lease of at
 * most `durationSeconds`, given back when the batch's last byte is written (or the client goes away).
 */
const LABEL_BATCH_LEASE: RateLimitRule = { name: 'label-batch', points: 1, durationSeconds: 120 };

/** What a refused batch is told to wait: a batch takes seconds, the lease's whole duration is its bound. */
const LABEL_BATCH_RETRY_SECONDS = 5;

/** Runs `chunks` under the organization's batch lease; 429 with Retry-After while another batch runs. */
async function underBatchLease(
  ctx: ApiContext,
  organizationId: string,
  chunks: () => AsyncIterable<Uint8Array>,
): Promise<AsyncIterable<Uint8Array>> {
  let release: () => Promise<void>;
  try {
    release = await ctx.services.rateLimiter.lease(LABEL_BATCH_LEASE, rateLimitKey([organizationId]));
  } catch (error) {
    if (!isAppError(error) || error.code !== 'RATE_LIMIT_EXCEEDED') throw error;
    throw new AppError(
      'RATE_LIMIT_EXCEEDED',
      'A labels batch of this organization is being made; retry when it is done',
      undefined,
      { retryAfterSeconds: Math.min(error.retryAfterSeconds ?? 1, LABEL_BATCH_RETRY_SECONDS) },
    );
  }
  return (async function* () {
    try {
      yield* chunks();
    } finally {
      await release();
    }
  })();
}

export const labelsPdfProcedure = operator
  .meta({
    openapi: {
      method: 'POST',
      path: `${BASE}/labels-pdf`,
      tags: TAGS,
      summary: 'The stored labels of the selected fulfillments as one PDF',
      description: [
        "Each fulfillment must be `READY` with active native postage, no open void, and a stored label that is safe (a small, unencrypted PDF matching its stored hash); else `409 LABEL_BATCH_REJECTED` and no partial PDF. The labels' pages only are copied into one new document; no carrier is called.",
        `One batch at a time per organization (\`429\` with \`Retry-After\` meanwhile). Every label is checked before the first byte; a label removed while the PDF streams ends the download early. ${OPERATOR} ${SELECTION}`,
      ].join('\n\n'),
    },
    successStatus: 200,
    download: { contentType: 'application/pdf' },
    errors: ['LABEL_BATCH_REJECTED', 'RATE_LIMIT_EXCEEDED'],
  })
  .input(warehouseSelectionInputSchema)
  .output(downloadSchema)
  .mutation(async ({ ctx, input }): Promise<Download> => {
    assertRestSurface(ctx);
    const context = writeContext(ctx);
    const chunks = await underBatchLease(ctx, context.organizationId, () =>
      streamLabelBatch(ctx.db, context, input),
    );
    return {
      kind: 'download',
      contentType: 'application/pdf',
      filename: `labels-${ctx.tenant.slug}-${fileStamp(context.at)}.pdf`,
      chunks,
    };
  });
