import { AppError } from '@commerce/core';
import { z } from 'zod';
import type { ApiContext } from './context.ts';

/** A file answer: the REST layer streams `chunks` as the body of an attachment. */
export interface Download {
  kind: 'download';
  contentType: 'text/csv';
  filename: string;
  chunks: AsyncIterable<string>;
}

export function isDownload(value: unknown): value is Download {
  return typeof value === 'object' && value !== null && (value as { kind?: unknown }).kind === 'download';
}

/**
 * The output schema of a download procedure. The OpenAPI document replaces it
 * with the file's media type; here it only checks the procedure's own result.
 */
export const downloadSchema = z
  .custom<Download>(isDownload, 'not a download')
  .meta({ override: { type: 'string', format: 'binary' } });

/** Downloads are streamed by the REST layer; /trpc has no way to carry them. */
export function assertRestSurface(ctx: Pick<ApiContext, 'request'>): void {
  if (ctx.request.surface !== 'rest') throw AppError.notFound('This route is served by REST only');
}
