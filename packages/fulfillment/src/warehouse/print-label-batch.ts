import { type Database, recordAudit } from '@commerce/db';
import type { Kysely } from 'kysely';
import { PDFName, type PDFPage } from 'pdf-lib';
import {
  checkLabelArtifact,
  type LabelArtifact,
  readLabelArtifacts,
} from '../shipping-label/label-artifacts.ts';
import { PdfStreamWriter } from './pdf-stream-writer.ts';
import type { LabelBatchFailure, WarehouseContext, WarehouseSelectionInput } from './schemas.ts';
import { readSelectedRows, selectionRefused } from './warehouse-selection.ts';

/**
 * Label bytes read per query: at most 50 labels of at most 2 MiB each could
 * be 100 MiB, so the documents are fetched in groups of about this size
 * (one group for ordinary labels of a few kilobytes).
 */
export const LABEL_BATCH_READ_BYTES = 8 * 1024 * 1024;

/**
 * What a copied page keeps: its content, resources and boxes. Annotations
 * (links, form widgets and their actions), additional actions, article
 * beads, thumbnails and metadata are dropped before the copy, so nothing
 * they reference enters the batch.
 */
const PAGE_KEYS_KEPT = new Set([
  'Type',
  'Parent',
  'Resources',
  'Contents',
  'MediaBox',
  'CropBox',
  'BleedBox',
  'TrimBox',
  'ArtBox',
  'Rotate',
  'UserUnit',
  'Group',
]);

function pagesOnly(pages: PDFPage[]): void {
  for (const page of pages)
    for (const key of page.node.keys())
      if (!PAGE_KEYS_KEPT.has(key.decodeText())) page.node.delete(PDFName.of(key.decodeText()));
}

type Failure = { fulfillmentId: string; reason: LabelBatchFailure };
type Printable = { fulfillmentId: string; purchaseId: string; bytes: number };

/**
 * `POST /merchant/shipping/warehouse-outputs/labels-pdf`: the stored
 * labels of the selected fulfillments, in request order, their pages copied
 * with pdf-lib into one new document. Each must be `READY` with native
 * `ACTIVE` postage whose label is stored and safe (`checkLabelArtifact`);
 * one failure fails the batch, every failure listed in request order (409
 * LABEL_BATCH_REJECTED), no partial PDF. Calls no carrier, changes nothing
 * but the audit log (`warehouse.labels_printed`).
 *
 * Streamed, its memory bounded (docs/fulfillment.md, "Labels PDF batch"): the first chunk
 * comes only after every label was read and checked (so a refusal is still an
 * error answer, and the audit is recorded), one group of about
 * `LABEL_BATCH_READ_BYTES` at a time; then the labels are read again group by
 * group and each one's pages are written out (`PdfStreamWriter`) and dropped.
 * A label gone bad between the two reads ends the download early.
 */
export function streamLabelBatch(
  db: Kysely<Database>,
  ctx: WarehouseContext,
  input: WarehouseSelectionInput,
): AsyncIterable<Uint8Array> {
  return (async function* () {
    const { fulfillmentIds } = input;
    const selected = await readSelectedRows(db, ctx.organizationId, fulfillmentIds);
    const failures: Failure[] = [];
    const printable: Printable[] = [];
    for (const fulfillmentId of fulfillmentIds) {
      const row = selected.get(fulfillmentId);
      const fail = (reason: LabelBatchFailure) => failures.push({ fulfillmentId, reason });
      if (!row) fail('NOT_FOUND');
      else if (row.status !== 'READY') fail('NOT_READY');
      else if (row.postage === null || row.postage.source !== 'NATIVE') fail('NO_NATIVE_POSTAGE');
      // Postage being voided (`VOID_PENDING`), or a shipment cancellation open.
      else if (row.postage.status === 'VOID_PENDING' || row.hasOpenCancellation) fail('VOID_PENDING');
      else if (row.postage.purchaseId === null || row.labelBytes === null) fail('LABEL_MISSING');
      else printable.push({ fulfillmentId, purchaseId: row.postage.purchaseId, bytes: row.labelBytes });
    }

    // Every stored label is checked, even after a failure, so the refusal lists them all; a group's
    // documents are released before the next is read. One group (ordinary labels of a few kilobytes)
    // is kept for the writing instead of being read twice.
    const groups = byteGroups(printable);
    const refused = new Map<string, LabelBatchFailure>();
    let kept: Map<string, LabelArtifact> | undefined;
    for (const group of groups) {
      const artifacts = await readGroup(db, ctx.organizationId, group);
      for (const label of group) {
        const artifact = artifacts.get(label.purchaseId);
        const checked = artifact ? await checkLabelArtifact(artifact) : undefined;
        if (!checked?.safe) refused.set(label.fulfillmentId, artifact ? 'LABEL_UNSAFE' : 'LABEL_MISSING');
      }
      if (groups.length === 1) kept = artifacts;
    }
    for (const [fulfillmentId, reason] of refused) failures.push({ fulfillmentId, reason });
    if (failures.length > 0) {
      const order = new Map(fulfillmentIds.map((id, index) => [id, index]));
      failures.sort((a, b) => order.get(a.fulfillmentId)! - order.get(b.fulfillmentId)!);
      throw selectionRefused('LABEL_BATCH_REJECTED', failures);
    }

    await recordAudit(db, {
      organizationId: ctx.organizationId,
      actor: ctx.actor,
      action: 'warehouse.labels_printed',
      targetType: 'warehouse_output',
      targetId: null,
      metadata: { count: fulfillmentIds.length, fulfillmentIds },
      at: ctx.at,
    });

    const writer = new PdfStreamWriter();
    yield writer.header();
    for (const group of groups) {
      const artifacts = kept ?? (await readGroup(db, ctx.organizationId, group));
      for (const label of group) {
        const artifact = artifacts.get(label.purchaseId);
        const checked = artifact ? await checkLabelArtifact(artifact) : undefined;
        if (!checked?.safe)
          throw new Error(`label of ${label.fulfillmentId} changed while the batch was written`);
        pagesOnly(checked.document.getPages());
        yield writer.addPagesOf(checked.document);
      }
    }
    yield writer.finish({ title: `Shipping labels (${fulfillmentIds.length})` });
  })();
}

/** The whole batch in one buffer (tests, and callers that need the bytes). */
export async function printLabelBatch(
  db: Kysely<Database>,
  ctx: WarehouseContext,
  input: WarehouseSelectionInput,
): Promise<Uint8Array> {
  const chunks: Uint8Array[] = [];
  for await (const chunk of streamLabelBatch(db, ctx, input)) chunks.push(chunk);
  return Buffer.concat(chunks);
}

const readGroup = (db: Kysely<Database>, organizationId: string, group: Printable[]) =>
  readLabelArtifacts(
    db,
    organizationId,
    group.map((label) => label.purchaseId),
  );

/** Consecutive labels, in request order, in groups of about `LABEL_BATCH_READ_BYTES`. */
function byteGroups<T extends { bytes: number }>(labels: T[]): T[][] {
  const groups: T[][] = [];
  let current: T[] = [];
  let size = 0;
  for (const label of labels) {
    if (current.length > 0 && size + label.bytes > LABEL_BATCH_READ_BYTES) {
      groups.push(current);
      current = [];
      size = 0;
    }
    current.push(label);
    size += label.bytes;
  }
  if (current.length > 0) groups.push(current);
  return groups;
}
