import { createHash } from 'node:crypto';
import { newId } from '@commerce/core';
import type { Database } from '@commerce/db';
import type { Kysely } from 'kysely';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { renderSandboxLabel, sandboxTrackingNumber } from '../src/carrier/sandbox-label.ts';

/**
 * Test and bench seeding for the warehouse outputs. The label purchase flow
 * is what normally gives a fulfillment native postage and stores its
 * label; these helpers write the same rows directly, so the outputs can be
 * tested on their own.
 */

/**
 * A label PDF: one page is the sandbox carrier's own label; otherwise `pages`
 * pages of `size` points (4 x 6 in by default), so a test can tell labels apart by size.
 */
export async function labelPdf(
  pages = 1,
  options: { trackingNumber?: string; size?: [number, number] } = {},
): Promise<Uint8Array> {
  const trackingNumber = options.trackingNumber ?? 'SBX0000000000000000';
  if (pages === 1 && options.size === undefined)
    return renderSandboxLabel({
      trackingNumber,
      service: 'GROUND',
      createdAt: new Date('2026-11-26T00:00:00Z'),
    });
  const document = await PDFDocument.create();
  const font = await document.embedFont(StandardFonts.Helvetica);
  for (let index = 0; index < pages; index += 1)
    document
      .addPage(options.size ?? [288, 432])
      .drawText(`${trackingNumber} page ${index + 1}`, { x: 18, y: 280, font, size: 10 });
  return document.save();
}

// `lbp_` joins the id prefixes with the label purchase work; until then a purchase id is built here.
const purchaseIdAt = (at: Date) => newId('lbp', at);

export interface SeededLabel {
  postageId: string;
  purchaseId: string;
  trackingNumber: string;
}

/**
 * Moves a `PLANNED` fulfillment to `READY` with current postage, as a
 * settled label purchase (or external postage) would leave it: a
 * `PURCHASED` label purchase and native postage (`NATIVE`, `LEGACY`) or
 * external postage, in `status` (ACTIVE by default), and, for native postage
 * when `label` is given, the stored label document. `label.sha256` and
 * `label.contentType` may be set to store an artifact that lies about itself.
 */
export async function seedLabel(
  db: Kysely<Database>,
  input: {
    organizationId: string;
    fulfillmentId: string;
    at: Date;
    source?: 'NATIVE' | 'EXTERNAL' | 'LEGACY';
    status?: 'ACTIVE' | 'VOID_PENDING';
    label?: { bytes: Uint8Array; contentType?: string; sha256?: string } | null;
  },
): Promise<SeededLabel> {
  const { organizationId, fulfillmentId, at } = input;
  const source = input.source ?? 'NATIVE';
  const fulfillment = await db
    .selectFrom('fulfillments')
    .select(['sales_record_id', 'order_id'])
    .where('organization_id', '=', organizationId)
    .where('id', '=', fulfillmentId)
    .executeTakeFirstOrThrow();
  const purchaseId = purchaseIdAt(at);
  const trackingNumber = sandboxTrackingNumber(purchaseId);
  const postageId = newId('pst', at);
  await db.transaction().execute(async (trx) => {
    if (source !== 'EXTERNAL')
      await trx
        .insertInto('label_purchases')
        .values({
          organization_id: organizationId,
          id: purchaseId,
          sales_record_id: fulfillment.sales_record_id,
          order_id: fulfillment.order_id,
          fulfillment_id: fulfillmentId,
          status: 'PURCHASED',
          failure: null,
          carrier: 'sandbox',
          service: 'GROUND',
          charge_in_cents: 680,
          currency: 'USD',
          lines: JSON.stringify([]),
          package: JSON.stringify({}),
          selection_fingerprint: `sqf1_${'A'.repeat(43)}`,
          classification: 'STANDARD',
          override_reason: null,
          reason: null,
          tracking_number: trackingNumber,
          created_by: null,
          claimed_at: at,
          settled_at: at,
          last_reconciled_at: null,
          reconcile_outcome: null,
        })
        .execute();
    await trx
      .insertInto('fulfillment_postages')
      .values({
        organization_id: organizationId,
        id: postageId,
        fulfillment_id: fulfillmentId,
        source,
        status: input.status ?? 'ACTIVE',
        carrier: source === 'EXTERNAL' ? 'Other Post' : 'sandbox',
        service: 'GROUND',
        tracking_number: trackingNumber,
        tracking_url: null,
        charge_in_cents: source === 'EXTERNAL' ? null : 680,
        currency: source === 'EXTERNAL' ? null : 'USD',
        purchase_id: source === 'EXTERNAL' ? null : purchaseId,
        label_available: source === 'NATIVE' && Boolean(input.label),
        purchased_at: source === 'EXTERNAL' ? null : at,
        retired_at: null,
        retirement_evidence: null,
        created_at: at,
      })
      .execute();
    await trx
      .updateTable('fulfillments')
      .set((eb) => ({ status: 'READY', updated_at: at, version: eb('version', '+', 1) }))
      .where('organization_id', '=', organizationId)
      .where('id', '=', fulfillmentId)
      .execute();
    if (source === 'NATIVE' && input.label) {
      const { bytes } = input.label;
      await trx
        .insertInto('label_artifacts')
        .values({
          organization_id: organizationId,
          purchase_id: purchaseId,
          content_type: input.label.contentType ?? 'application/pdf',
          sha256: input.label.sha256 ?? createHash('sha256').update(bytes).digest('hex'),
          byte_size: bytes.byteLength,
          bytes,
          stored_at: at,
        })
        .execute();
    }
  });
  return { postageId, purchaseId, trackingNumber };
}

/** Retires the fulfillment's current postage, as void evidence would. */
export async function voidPostage(
  db: Kysely<Database>,
  organizationId: string,
  postageId: string,
  at: Date,
): Promise<void> {
  await db
    .updateTable('fulfillment_postages')
    .set({ status: 'VOIDED', retired_at: at })
    .where('organization_id', '=', organizationId)
    .where('id', '=', postageId)
    .execute();
}

/** An unsettled label purchase naming the fulfillment: claimed, not yet settled. */
export async function seedUnsettledPurchase(
  db: Kysely<Database>,
  input: { organizationId: string; fulfillmentId: string; at: Date },
): Promise<string> {
  const fulfillment = await db
    .selectFrom('fulfillments')
    .select(['sales_record_id', 'order_id'])
    .where('organization_id', '=', input.organizationId)
    .where('id', '=', input.fulfillmentId)
    .executeTakeFirstOrThrow();
  const id = purchaseIdAt(input.at);
  await db
    .insertInto('label_purchases')
    .values({
      organization_id: input.organizationId,
      id,
      sales_record_id: fulfillment.sales_record_id,
      order_id: fulfillment.order_id,
      fulfillment_id: input.fulfillmentId,
      status: 'PENDING',
      failure: null,
      carrier: 'sandbox',
      service: 'GROUND',
      charge_in_cents: 680,
      currency: 'USD',
      lines: JSON.stringify([]),
      package: JSON.stringify({}),
      selection_fingerprint: `sqf1_${'B'.repeat(43)}`,
      classification: 'STANDARD',
      override_reason: null,
      reason: null,
      tracking_number: null,
      created_by: null,
      claimed_at: input.at,
      settled_at: null,
      last_reconciled_at: null,
      reconcile_outcome: null,
    })
    .execute();
  return id;
}

/** The page count of a PDF (for tests of packages that do not depend on pdf-lib). */
export async function pdfPageCount(bytes: Uint8Array): Promise<number> {
  return (await PDFDocument.load(bytes)).getPageCount();
}

/**
 * A shipment cancellation left open on a seeded label: `EXHAUSTED` (the worker's reads ran
 * out without evidence) or `PENDING`, with the postage still `ACTIVE`, as the carrier never
 * answered. The labels batch must not print it.
 */
export async function seedOpenCancellation(
  db: Kysely<Database>,
  input: {
    organizationId: string;
    fulfillmentId: string;
    postageId: string;
    at: Date;
    status: 'PENDING' | 'EXHAUSTED';
  },
): Promise<void> {
  await db
    .insertInto('shipment_cancellations')
    .values({
      organization_id: input.organizationId,
      id: newId('scn', input.at),
      fulfillment_id: input.fulfillmentId,
      postage_id: input.postageId,
      status: input.status,
      requested_at: input.at,
      void_requested_at: input.at,
      updated_at: input.at,
    })
    .execute();
}
