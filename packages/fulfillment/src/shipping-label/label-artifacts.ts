import { createHash } from 'node:crypto';
import type { Database } from '@commerce/db';
import type { Kysely } from 'kysely';
import { PDFDocument } from 'pdf-lib';

/** The largest label document we keep or print. */
export const LABEL_ARTIFACT_MAX_BYTES = 2 * 1024 * 1024;
/** The pages a safe label may have. */
export const LABEL_ARTIFACT_PAGES = { min: 1, max: 4 } as const;

export interface LabelArtifact {
  purchaseId: string;
  contentType: string;
  sha256: string;
  byteSize: number;
  bytes: Uint8Array;
  storedAt: Date;
}

function sha256Hex(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/**
 * Keeps the document of a purchased label, after the settle. Idempotent per purchase: a
 * second store (the worker's retry after a first that did land) keeps the first bytes. Refuses
 * nothing but what the table cannot hold (empty or over 2 MiB): whether a stored label is safe to
 * print is decided when it is printed (`checkLabelArtifact`).
 */
export async function storeLabelArtifact(
  db: Kysely<Database>,
  input: { organizationId: string; purchaseId: string; contentType: string; bytes: Uint8Array; at: Date },
): Promise<'STORED' | 'TOO_LARGE'> {
  const { bytes } = input;
  if (bytes.byteLength === 0 || bytes.byteLength > LABEL_ARTIFACT_MAX_BYTES) return 'TOO_LARGE';
  await db
    .insertInto('label_artifacts')
    .values({
      organization_id: input.organizationId,
      purchase_id: input.purchaseId,
      content_type: input.contentType,
      sha256: sha256Hex(bytes),
      byte_size: bytes.byteLength,
      bytes,
      stored_at: input.at,
    })
    .onConflict((oc) => oc.columns(['organization_id', 'purchase_id']).doNothing())
    .execute();
  return 'STORED';
}

/** The stored documents of these purchases of the tenant, by purchase id (one query). */
export async function readLabelArtifacts(
  db: Kysely<Database>,
  organizationId: string,
  purchaseIds: readonly string[],
): Promise<Map<string, LabelArtifact>> {
  const found = new Map<string, LabelArtifact>();
  if (purchaseIds.length === 0) return found;
  const rows = await db
    .selectFrom('label_artifacts')
    .select(['purchase_id', 'content_type', 'sha256', 'byte_size', 'bytes', 'stored_at'])
    .where('organization_id', '=', organizationId)
    .where('purchase_id', 'in', [...purchaseIds])
    .execute();
  for (const row of rows) {
    found.set(row.purchase_id, {
      purchaseId: row.purchase_id,
      contentType: row.content_type,
      sha256: row.sha256,
      byteSize: row.byte_size,
      bytes: row.bytes,
      storedAt: new Date(row.stored_at),
    });
  }
  return found;
}

/**
 * Whether a stored label is safe to copy into a batch: `application/pdf`, starts with
 * `%PDF-`, matches its stored SHA-256, at most 2 MiB, loads in pdf-lib without `ignoreEncryption`
 * and has 1 to 4 pages. The loaded document is returned for the copy, so it is parsed once.
 */
export async function checkLabelArtifact(
  artifact: LabelArtifact,
): Promise<{ safe: true; document: PDFDocument } | { safe: false; why: string }> {
  const { bytes } = artifact;
  if (artifact.contentType.split(';')[0]?.trim().toLowerCase() !== 'application/pdf')
    return { safe: false, why: 'content type is not application/pdf' };
  if (bytes.byteLength > LABEL_ARTIFACT_MAX_BYTES) return { safe: false, why: 'larger than 2 MiB' };
  const magic = Buffer.from(bytes.subarray(0, 5)).toString('latin1');
  if (magic !== '%PDF-') return { safe: false, why: 'does not start with %PDF-' };
  if (sha256Hex(bytes) !== artifact.sha256) return { safe: false, why: 'SHA-256 does not match' };
  // pdf-lib parses leniently: a damaged file may load and fail only when its page tree is read.
  let document: PDFDocument;
  let pages: number;
  try {
    document = await PDFDocument.load(bytes, { updateMetadata: false });
    pages = document.getPageCount();
  } catch {
    return { safe: false, why: 'does not load as an unencrypted PDF' };
  }
  if (pages < LABEL_ARTIFACT_PAGES.min || pages > LABEL_ARTIFACT_PAGES.max)
    return { safe: false, why: `has ${pages} pages` };
  return { safe: true, document };
}
