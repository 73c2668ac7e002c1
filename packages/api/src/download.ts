import { AppError } from '@commerce/core';
import { z } from 'zod';
import type { ApiContext } from './context.ts';

/** A file answer: the REST layer streams `chunks` (text is sent as UTF-8) as the body of an attachment. */
export interface Download {
  kind: 'download';
  contentType: 'text/csv' | 'text/csv; charset=utf-8' | 'application/pdf';
  filename: string;
  chunks: AsyncIterable<string | Uint8Array>;
}

/** A download whose whole body is already built (a file checked before its status goes out). */
export function wholeDownload(
  contentType: Download['contentType'],
  filename: string,
  body: string | Uint8Array,
): Download {
  return {
    kind: 'download',
    contentType,
    filename,
    chunks: (async function* () {
      yield body;
    })(),
  };
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
