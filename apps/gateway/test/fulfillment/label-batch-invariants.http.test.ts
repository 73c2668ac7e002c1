import { labelPdf, seedLabel } from '@commerce/fulfillment/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '../support/harness.ts';
import { placeOrderThroughApi, planOneUnit } from '../support/orders.ts';
import { createRoleFixture, type RoleFixture } from '../support/roles.ts';

/**
 * Issue 15: one void-pending, missing or tampered label fails the whole labels
 * PDF batch over HTTP, and no PDF bytes leave.
 */
let h: Harness;
let shop: RoleFixture;

const PDF = '/merchant/shipping/warehouse-outputs/labels-pdf';
let sequence = 0;
const newKey = () => `http-label-batch-${process.pid}-${++sequence}-0123456789`;

/** A PLANNED fulfillment of a fresh order, through the API. */
async function planned(): Promise<string> {
  const order = await placeOrderThroughApi(h, shop, {
    slug: `parcel-${++sequence}`,
    name: 'Parcel',
    quantity: 1,
  });
  return planOneUnit(shop, order, newKey());
}

async function labelled(
  options: Omit<Parameters<typeof seedLabel>[1], 'organizationId' | 'fulfillmentId' | 'at'>,
) {
  const fulfillmentId = await planned();
  await seedLabel(h.database.db, {
    organizationId: shop.organizationId,
    fulfillmentId,
    at: h.clock.now(),
    ...options,
  });
  return fulfillmentId;
}

beforeAll(async () => {
  h = await createHarness();
  shop = await createRoleFixture(h, 'label-batch-shop', ['fulfillment:operate']);
});
afterAll(async () => {
  await h.close();
});

describe('POST labels-pdf with one bad label among good ones', () => {
  it('is 409 LABEL_BATCH_REJECTED for a void-pending, missing or tampered label, with no PDF bytes and no audit', async () => {
    const good = await labelled({ label: { bytes: await labelPdf() } });
    const alsoGood = await labelled({ label: { bytes: await labelPdf() } });
    // The good ones print together: the refusals below are the bad label's doing.
    const printed = await shop.call('owner', 'POST', PDF, { fulfillmentIds: [good, alsoGood] });
    expect(printed.status).toBe(200);
    expect(printed.headers.get('content-type')).toBe('application/pdf');
    // Read to its end: the organization's one batch at a time is given back when the last byte is sent.
    expect(new TextDecoder().decode((await printed.arrayBuffer()).slice(0, 5))).toBe('%PDF-');

    const bad = {
      VOID_PENDING: await labelled({ status: 'VOID_PENDING', label: { bytes: await labelPdf() } }),
      LABEL_MISSING: await labelled({ label: null }),
      LABEL_UNSAFE: await labelled({ label: { bytes: await labelPdf(), sha256: 'f'.repeat(64) } }),
    };
    for (const [reason, fulfillmentId] of Object.entries(bad)) {
      const response = await shop.call('owner', 'POST', PDF, {
        fulfillmentIds: [good, fulfillmentId, alsoGood],
      });
      expect(response.status, reason).toBe(409);
      expect(response.headers.get('content-type'), reason).toMatch(/^application\/json/);
      expect(response.headers.get('content-disposition'), reason).toBeNull();
      const bytes = new Uint8Array(await response.arrayBuffer());
      expect(new TextDecoder().decode(bytes).includes('%PDF'), reason).toBe(false);
      expect(JSON.parse(new TextDecoder().decode(bytes)), reason).toMatchObject({
        error: { code: 'LABEL_BATCH_REJECTED', details: { failures: [{ fulfillmentId, reason }] } },
      });
    }
    const audits = await h.database.db
      .selectFrom('audit_logs')
      .select('metadata')
      .where('organization_id', '=', shop.organizationId)
      .where('action', '=', 'warehouse.labels_printed')
      .execute();
    // Only the one batch that printed.
    expect(audits).toEqual([{ metadata: { count: 2, fulfillmentIds: [good, alsoGood] } }]);
  });
});
