import { labelPdf, pdfPageCount, seedLabel } from '@commerce/fulfillment/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, expectError, expectJson, type Harness } from '../support/harness.ts';
import { placeOrderThroughApi, planOneUnit } from '../support/orders.ts';
import { ACTORS, createRoleFixture, expectedStatus, type RoleFixture } from '../support/roles.ts';

let h: Harness;
let shop: RoleFixture;
let other: RoleFixture;

const BASE = '/merchant/shipping/warehouse-outputs';
const CSV = `${BASE}/csv-export`;
const PDF = `${BASE}/labels-pdf`;

let keySequence = 0;
const newKey = () => `http-warehouse-${process.pid}-${++keySequence}-0123456789`;

interface Row {
  fulfillmentId: string;
  status: string;
  packingSlip: { shipTo: unknown; lines: { name: string }[] };
  labelEligibility: { canPrint: boolean; canPurchase: boolean; reason: string | null };
}

/** An item, an order of it with a ship-to address, and a PLANNED fulfillment of it, all through the API. */
async function plannedFulfillment(fixture: RoleFixture): Promise<{ fulfillmentId: string; orderId: string }> {
  const order = await placeOrderThroughApi(h, fixture, {
    slug: `crate-${++keySequence}`,
    name: 'Crate',
    quantity: 2,
    notes: 'Secret gate code 4411',
  });
  await expectJson(
    await fixture.call('owner', 'PUT', `/merchant/orders/${order.id}/shipping-address`, {
      name: 'Ada Lovelace',
      line1: '=1 Main St',
      city: 'Lisbon',
      postalCode: '1000-001',
      country: 'PT',
    }),
    200,
  );
  const fulfillmentId = await planOneUnit(fixture, order, newKey());
  return { fulfillmentId, orderId: order.id };
}

/** A READY fulfillment whose native label (`pages` pages) is stored. */
async function printableFulfillment(fixture: RoleFixture, pages = 1): Promise<string> {
  const { fulfillmentId } = await plannedFulfillment(fixture);
  await seedLabel(h.database.db, {
    organizationId: fixture.organizationId,
    fulfillmentId,
    at: h.clock.now(),
    label: { bytes: await labelPdf(pages) },
  });
  return fulfillmentId;
}

const FILENAME = (prefix: string, slug: string, extension: string) =>
  new RegExp(`^attachment; filename="${prefix}-${slug}-\\d{8}T\\d{6}Z\\.${extension}"$`);

beforeAll(async () => {
  h = await createHarness();
  shop = await createRoleFixture(h, 'warehouse-shop', ['fulfillment:operate']);
  other = await createRoleFixture(h, 'warehouse-other', ['fulfillment:operate']);
});
afterAll(async () => {
  await h.close();
});

describe(`GET ${BASE}`, () => {
  it('lists the PLANNED and READY fulfillments for any member, with eligibility, never notes', async () => {
    const planned = await plannedFulfillment(shop);
    const ready = await printableFulfillment(shop);
    await plannedFulfillment(other);
    for (const actor of ACTORS) {
      const response = await shop.call(actor, 'GET', BASE);
      expect(response.status, actor).toBe(
        expectedStatus(actor, ['owner', 'admin', 'staffWith', 'staffWithout'], 200),
      );
    }
    const page = await expectJson<{ data: Row[]; nextCursor: string | null }>(
      await shop.call('staffWithout', 'GET', `${BASE}?status=PLANNED,READY&limit=200`),
      200,
    );
    const ids = page.data.map((row) => row.fulfillmentId);
    expect(ids).toEqual([planned.fulfillmentId, ready].sort());
    expect(page.data.find((row) => row.fulfillmentId === ready)?.labelEligibility).toEqual({
      canPrint: true,
      canPurchase: false,
      reason: null,
    });
    expect(page.data.find((row) => row.fulfillmentId === planned.fulfillmentId)?.labelEligibility).toEqual({
      canPrint: false,
      canPurchase: true,
      reason: 'NO_POSTAGE',
    });
    expect(JSON.stringify(page)).not.toContain('gate code');
    const readyOnly = await expectJson<{ data: Row[] }>(
      await shop.call('owner', 'GET', `${BASE}?status=READY`),
      200,
    );
    expect(readyOnly.data.map((row) => row.fulfillmentId)).toEqual([ready]);
    const first = await expectJson<{ data: Row[]; nextCursor: string }>(
      await shop.call('owner', 'GET', `${BASE}?limit=1`),
      200,
    );
    expect(first.data.map((row) => row.fulfillmentId)).toEqual([ids[0]]);
    const second = await expectJson<{ data: Row[]; nextCursor: string | null }>(
      await shop.call('owner', 'GET', `${BASE}?limit=1&cursor=${first.nextCursor}`),
      200,
    );
    expect(second.data.map((row) => row.fulfillmentId)).toEqual([ids[1]]);
  });

  it('refuses bad queries with 400', async () => {
    for (const query of [
      'status=SHIPPED',
      'status=',
      'limit=0',
      'limit=201',
      'cursor=ful_nothing',
      'other=1',
    ])
      await expectError(await shop.call('owner', 'GET', `${BASE}?${query}`), 400, 'VALIDATION_FAILED');
  });
});

describe(`POST ${CSV}`, () => {
  it('answers the CSV attachment, no-store, for fulfillment:operate only, and audits', async () => {
    const ready = await printableFulfillment(shop);
    const planned = await plannedFulfillment(shop);
    for (const actor of ACTORS) {
      const response = await shop.call(actor, 'POST', CSV, { fulfillmentIds: [planned.fulfillmentId] });
      expect(response.status, actor).toBe(expectedStatus(actor, ['owner', 'admin', 'staffWith'], 200));
      await response.arrayBuffer();
    }
    const response = await shop.call('staffWith', 'POST', CSV, {
      fulfillmentIds: [ready, planned.fulfillmentId],
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(response.headers.get('content-disposition')).toMatch(FILENAME('warehouse', shop.slug, 'csv'));
    const text = await response.text();
    const lines = text.split('\r\n');
    expect(lines[0]).toBe(
      'fulfillmentId,status,orderNumber,orderReference,recipientName,line1,line2,city,state,postalCode,country,lineId,sku,itemName,variantName,quantity,carrier,service,trackingNumber,labelPrintable',
    );
    expect(lines.slice(1, 3).map((line) => line.split(',')[0])).toEqual([ready, planned.fulfillmentId]);
    expect(lines[1]).toContain(",'=1 Main St,");
    expect(lines[3]).toBe('');
    const audits = await h.database.db
      .selectFrom('audit_logs')
      .select(['metadata', 'actor_user_id'])
      .where('organization_id', '=', shop.organizationId)
      .where('action', '=', 'warehouse.csv_exported')
      .orderBy('id', 'desc')
      .execute();
    expect(audits[0]).toEqual({
      metadata: { count: 2, fulfillmentIds: [ready, planned.fulfillmentId] },
      actor_user_id: shop.users.staffWith.userId,
    });
  });

  it("answers 409 with every failure; another organization's fulfillment is NOT_FOUND", async () => {
    const mine = await plannedFulfillment(shop);
    const theirs = await plannedFulfillment(other);
    const error = await expectError(
      await shop.call('owner', 'POST', CSV, {
        fulfillmentIds: [theirs.fulfillmentId, mine.fulfillmentId, 'ful_x'],
      }),
      409,
      'WAREHOUSE_SELECTION_REJECTED',
    );
    expect(error.details).toEqual({
      failures: [
        { fulfillmentId: theirs.fulfillmentId, reason: 'NOT_FOUND' },
        { fulfillmentId: 'ful_x', reason: 'NOT_FOUND' },
      ],
    });
  });

  it('refuses a selection that is empty, over 50, repeated, or not the body it should be with 400', async () => {
    const ids = (count: number) => Array.from({ length: count }, (_, index) => `ful_${index}`);
    for (const body of [
      {},
      { fulfillmentIds: [] },
      { fulfillmentIds: ids(51) },
      { fulfillmentIds: ['ful_a', 'ful_a'] },
      { fulfillmentIds: ['ful_a'], extra: true },
      { fulfillmentIds: 'ful_a' },
    ])
      await expectError(await shop.call('owner', 'POST', CSV, body), 400, 'VALIDATION_FAILED');
    const repeated = await expectError(
      await shop.call('owner', 'POST', CSV, { fulfillmentIds: ['ful_a', 'ful_b', 'ful_a'] }),
      400,
      'VALIDATION_FAILED',
    );
    expect(repeated.details?.issues?.map((issue) => issue.path)).toEqual(['fulfillmentIds.2']);
  });
});

describe(`POST ${PDF}`, () => {
  it('answers one PDF of the labels in request order, no-store, for fulfillment:operate only, and audits', async () => {
    const one = await printableFulfillment(shop, 1);
    const two = await printableFulfillment(shop, 2);
    for (const actor of ACTORS) {
      const response = await shop.call(actor, 'POST', PDF, { fulfillmentIds: [one] });
      expect(response.status, actor).toBe(expectedStatus(actor, ['owner', 'admin', 'staffWith'], 200));
      await response.arrayBuffer();
    }
    const response = await shop.call('staffWith', 'POST', PDF, { fulfillmentIds: [two, one] });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/pdf');
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(response.headers.get('content-disposition')).toMatch(FILENAME('labels', shop.slug, 'pdf'));
    const bytes = new Uint8Array(await response.arrayBuffer());
    expect(Buffer.from(bytes.subarray(0, 5)).toString('latin1')).toBe('%PDF-');
    expect(await pdfPageCount(bytes)).toBe(3);
    const audits = await h.database.db
      .selectFrom('audit_logs')
      .select('metadata')
      .where('organization_id', '=', shop.organizationId)
      .where('action', '=', 'warehouse.labels_printed')
      .orderBy('id', 'desc')
      .execute();
    expect(audits[0]?.metadata).toEqual({ count: 2, fulfillmentIds: [two, one] });
  });

  it("answers 409 LABEL_BATCH_REJECTED with every failure; another organization's label is NOT_FOUND", async () => {
    const good = await printableFulfillment(shop);
    const planned = await plannedFulfillment(shop);
    const theirs = await printableFulfillment(other);
    const error = await expectError(
      await shop.call('owner', 'POST', PDF, { fulfillmentIds: [good, planned.fulfillmentId, theirs] }),
      409,
      'LABEL_BATCH_REJECTED',
    );
    expect(error.details).toEqual({
      failures: [
        { fulfillmentId: planned.fulfillmentId, reason: 'NOT_READY' },
        { fulfillmentId: theirs, reason: 'NOT_FOUND' },
      ],
    });
    await expectError(
      await shop.call('owner', 'POST', PDF, { fulfillmentIds: [] }),
      400,
      'VALIDATION_FAILED',
    );
    await expectError(
      await shop.call('owner', 'POST', PDF, { fulfillmentIds: [good, good] }),
      400,
      'VALIDATION_FAILED',
    );
  });

  it('is REST only: over /trpc the outputs are 404', async () => {
    const good = await printableFulfillment(shop);
    const response = await h.app.request('/trpc/merchant.warehouseOutputs.labelsPdf', {
      method: 'POST',
      headers: {
        'x-organization-slug': shop.slug,
        authorization: `Bearer ${shop.users.owner.token}`,
        'content-type': 'application/json',
      },
      body: JSON.stringify({ fulfillmentIds: [good] }),
    });
    expect(response.status).toBe(404);
  });
});

describe(`POST ${PDF}: one batch at a time per organization`, () => {
  it('answers 429 with Retry-After to a second batch while the first is still being sent, then serves the next', async () => {
    const first = await printableFulfillment(shop);
    const second = await printableFulfillment(shop);
    const foreign = await printableFulfillment(other);
    // The first answer's body is not read yet: its batch is still being made (the stream waits on the client).
    const running = await shop.call('owner', 'POST', PDF, { fulfillmentIds: [first, second] });
    expect(running.status).toBe(200);
    const refused = await shop.call('owner', 'POST', PDF, { fulfillmentIds: [second] });
    await expectError(refused, 429, 'RATE_LIMIT_EXCEEDED');
    const retryAfter = Number(refused.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(5);
    // Another organization is not held up.
    const elsewhere = await other.call('owner', 'POST', PDF, { fulfillmentIds: [foreign] });
    expect(elsewhere.status).toBe(200);
    expect(await pdfPageCount(new Uint8Array(await elsewhere.arrayBuffer()))).toBe(1);
    // Once the first batch is sent, the next one is made.
    expect(await pdfPageCount(new Uint8Array(await running.arrayBuffer()))).toBe(2);
    const next = await shop.call('owner', 'POST', PDF, { fulfillmentIds: [second] });
    expect(next.status).toBe(200);
    expect(await pdfPageCount(new Uint8Array(await next.arrayBuffer()))).toBe(1);
  });

  it('gives the batch back when it is refused, so a corrected selection is served at once', async () => {
    const good = await printableFulfillment(shop);
    await expectError(
      await shop.call('owner', 'POST', PDF, { fulfillmentIds: [good, 'ful_unknown'] }),
      409,
      'LABEL_BATCH_REJECTED',
    );
    const response = await shop.call('owner', 'POST', PDF, { fulfillmentIds: [good] });
    expect(response.status).toBe(200);
    expect(await pdfPageCount(new Uint8Array(await response.arrayBuffer()))).toBe(1);
  });
});

describe('the OpenAPI document', () => {
  it('documents the three routes with their media types, security and codes', async () => {
    const document = await expectJson<{
      paths: Record<
        string,
        Record<
          string,
          {
            responses: Record<string, { content?: Record<string, unknown>; description?: string }>;
            security: unknown[];
          }
        >
      >;
    }>(await h.app.request('/api/v1/openapi.json'), 200);
    const csv = document.paths[CSV]?.post;
    const pdf = document.paths[PDF]?.post;
    expect(document.paths[BASE]?.get?.responses['200']?.content).toHaveProperty(['application/json']);
    expect(Object.keys(csv?.responses['200']?.content ?? {})).toEqual(['text/csv']);
    expect(Object.keys(pdf?.responses['200']?.content ?? {})).toEqual(['application/pdf']);
    expect(csv?.responses['409']?.description).toContain('WAREHOUSE_SELECTION_REJECTED');
    expect(pdf?.responses['409']?.description).toContain('LABEL_BATCH_REJECTED');
    expect(pdf?.responses['403']?.description).toContain('FORBIDDEN');
    expect(pdf?.security).toEqual([{ BearerAuth: [], OrganizationSlug: [] }]);
  });
});
