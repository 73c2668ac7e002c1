import { randomBytes } from 'node:crypto';
import { AppError, ManualClock } from '@commerce/core';
import type { Database, DatabaseHandle } from '@commerce/db';
import { createTestDatabase } from '@commerce/db/testing';
import { createLegacyOrder } from '@commerce/orders';
import { createOrderTenant, type OrderTenant, TEST_EMAIL_CONFIG } from '@commerce/orders/testing';
import type { Kysely, KyselyPlugin } from 'kysely';
import { PDFArray, PDFDict, PDFDocument, PDFName, PDFRawStream, PDFStream, PDFString } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  labelPdf,
  seedLabel,
  seedOpenCancellation,
  seedUnsettledPurchase,
  voidPostage,
} from '../../test/warehouse.ts';
import { cancelFulfillment } from '../fulfillments/cancel-fulfillment.ts';
import { createDirectFulfillment } from '../fulfillments/create-direct-fulfillment.ts';
import { planFulfillment } from '../fulfillments/plan-fulfillment.ts';
import {
  cancelFulfillmentInputSchema,
  createDirectFulfillmentInputSchema,
  type FulfillmentContext,
  planFulfillmentInputSchema,
} from '../fulfillments/schemas.ts';
import { exportWarehouseCsv, WAREHOUSE_CSV_COLUMNS } from './export-warehouse-csv.ts';
import { listWarehouseOutputs } from './list-warehouse-outputs.ts';
import { printLabelBatch, streamLabelBatch } from './print-label-batch.ts';
import { warehouseOutputListQuerySchema, warehouseSelectionInputSchema } from './schemas.ts';

let handle: DatabaseHandle;
const clock = new ManualClock('2026-11-26T10:00:00.000Z');

beforeAll(async () => {
  handle = await createTestDatabase();
});
afterAll(async () => {
  await handle.close();
});

let keySequence = 0;
const newKey = () => `warehouse-key-${process.pid}-${++keySequence}-abcdef`;

const ADDRESS = {
  name: 'Ada Lovelace',
  line1: '1 Main St',
  line2: null,
  city: 'Lisbon',
  state: null,
  postalCode: '1000-001',
  country: 'PT',
  phone: null,
};

async function failureOf(promise: Promise<unknown>): Promise<AppError> {
  const error = await promise.then(
    () => undefined,
    (failure: unknown) => failure,
  );
  expect(error).toBeInstanceOf(AppError);
  return error as AppError;
}

const ctxOf = (shop: OrderTenant): FulfillmentContext => ({ ...shop.ctx(), email: TEST_EMAIL_CONFIG });

interface Placed {
  orderId: string;
  recordId: string;
  lines: string[];
}

/** A legacy order of a variant line and a plain line, with `address` as its ship-to snapshot. */
async function placeOrder(
  shop: OrderTenant,
  options: { address?: Record<string, unknown> | null; names?: [string, string] } = {},
): Promise<Placed> {
  const [first, second] = options.names ?? ['Tee / Blue', 'Sticker'];
  const order = await createLegacyOrder(
    handle.db,
    shop.scope(),
    shop.body({
      notes: 'Gate code 4411, leave with neighbour',
      items: [
        { itemId: shop.itemId, variantId: shop.variantId, name: first, quantity: 3, unitPriceInCents: 1500 },
        { itemId: shop.itemId, variantId: null, name: second, quantity: 2, unitPriceInCents: 100 },
      ],
    }),
  );
  const recordId = (
    await handle.db
      .selectFrom('orders')
      .select('sales_record_id')
      .where('organization_id', '=', shop.organizationId)
      .where('id', '=', order.id)
      .executeTakeFirstOrThrow()
  ).sales_record_id;
  const address = options.address === undefined ? ADDRESS : options.address;
  const stored = address === null ? null : JSON.stringify(address);
  await handle.db
    .updateTable('sales_records')
    .set({ shipping_address: stored })
    .where('organization_id', '=', shop.organizationId)
    .where('id', '=', recordId)
    .execute();
  const lines = await handle.db
    .selectFrom('sales_record_lines')
    .select('id')
    .where('organization_id', '=', shop.organizationId)
    .where('sales_record_id', '=', recordId)
    .orderBy('position')
    .execute();
  return { orderId: order.id, recordId, lines: lines.map((line) => line.id) };
}

async function plan(
  shop: OrderTenant,
  placed: Placed,
  quantities: [number, number] = [1, 1],
): Promise<string> {
  const lines = placed.lines
    .map((lineId, index) => ({ lineId, quantity: quantities[index]! }))
    .filter((line) => line.quantity > 0);
  const { body } = await planFulfillment(
    handle.db,
    ctxOf(shop),
    planFulfillmentInputSchema.parse({ recordId: placed.recordId, lines }),
    newKey(),
  );
  return body.id;
}

async function shipped(shop: OrderTenant, placed: Placed): Promise<string> {
  const { body } = await createDirectFulfillment(
    handle.db,
    ctxOf(shop),
    createDirectFulfillmentInputSchema.parse({
      recordId: placed.recordId,
      lines: [{ lineId: placed.lines[0]!, quantity: 1 }],
      notifyCustomer: false,
    }),
    newKey(),
  );
  return body.id;
}

async function cancelled(shop: OrderTenant, placed: Placed): Promise<string> {
  const id = await plan(shop, placed, [1, 0]);
  await cancelFulfillment(
    handle.db,
    ctxOf(shop),
    cancelFulfillmentInputSchema.parse({ recordId: placed.recordId, fulfillmentId: id }),
  );
  return id;
}

/** A READY fulfillment with native ACTIVE postage and `bytes` (a sandbox label by default) stored. */
async function printable(
  shop: OrderTenant,
  placed: Placed,
  label: Parameters<typeof seedLabel>[1]['label'] = undefined,
): Promise<string> {
  const id = await plan(shop, placed);
  await seedLabel(handle.db, {
    organizationId: shop.organizationId,
    fulfillmentId: id,
    at: clock.now(),
    label: label === undefined ? { bytes: await labelPdf() } : label,
  });
  return id;
}

const list = (shop: OrderTenant, query: Record<string, unknown> = {}) =>
  listWarehouseOutputs(handle.db, shop.organizationId, warehouseOutputListQuerySchema.parse(query));
const selection = (fulfillmentIds: string[]) => warehouseSelectionInputSchema.parse({ fulfillmentIds });

const auditsOf = (shop: OrderTenant, action: string) =>
  handle.db
    .selectFrom('audit_logs')
    .select(['metadata', 'actor_user_id', 'target_type'])
    .where('organization_id', '=', shop.organizationId)
    .where('action', '=', action)
    .execute();

/** RFC 4180 records (CRLF between records; quoted cells may hold anything, quotes doubled) as objects by header. */
function parseCsv(text: string): Record<string, string>[] {
  const records: string[][] = [];
  let record: string[] = [];
  let cell = '';
  let index = 0;
  while (index < text.length) {
    if (text[index] === '"') {
      index += 1;
      for (;;) {
        if (text[index] === '"' && text[index + 1] === '"') {
          cell += '"';
          index += 2;
        } else if (text[index] === '"') {
          index += 1;
          break;
        } else if (index >= text.length) throw new Error('unterminated quote');
        else cell += text[index++];
      }
    } else if (text[index] === ',') {
      record.push(cell);
      cell = '';
      index += 1;
    } else if (text.startsWith('\r\n', index)) {
      record.push(cell);
      records.push(record);
      record = [];
      cell = '';
      index += 2;
    } else if (text[index] === '\r' || text[index] === '\n')
      throw new Error('bare line break outside quotes');
    else cell += text[index++];
  }
  if (cell !== '' || record.length > 0) throw new Error('last record not ended by CRLF');
  const [header, ...rows] = records;
  for (const row of rows) expect(row).toHaveLength(header!.length);
  return rows.map((row) => Object.fromEntries(header!.map((name, column) => [name, row[column]!])));
}

/** Counts the statements a service sends. */
function counted(db: Kysely<Database>): { db: Kysely<Database>; count: () => number } {
  let statements = 0;
  const plugin: KyselyPlugin = {
    transformQuery: (args) => {
      statements += 1;
      return args.node;
    },
    transformResult: async (args) => args.result,
  };
  return { db: db.withPlugin(plugin), count: () => statements };
}

describe('GET warehouse-outputs (listWarehouseOutputs)', () => {
  it('lists PLANNED and READY fulfillments by id with packing slips, never notes, in two queries a page', async () => {
    const shop = await createOrderTenant(handle.db, clock);
    const placed = await placeOrder(shop);
    const planned = await plan(shop, placed);
    const ready = await printable(shop, placed);
    await shipped(shop, placed);
    await cancelled(shop, await placeOrder(shop));

    const page = await list(shop);
    expect(page.nextCursor).toBeNull();
    expect(page.data.map((row) => row.fulfillmentId)).toEqual([planned, ready].sort());
    const row = page.data.find((candidate) => candidate.fulfillmentId === planned)!;
    const order = await handle.db
      .selectFrom('orders')
      .select(['order_number', 'order_reference'])
      .where('organization_id', '=', shop.organizationId)
      .where('id', '=', placed.orderId)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({
      fulfillmentId: planned,
      recordId: placed.recordId,
      orderId: placed.orderId,
      orderNumber: order.order_number,
      orderReference: order.order_reference,
      status: 'PLANNED',
      createdAt: clock.now().toISOString(),
      package: null,
      postage: null,
      packingSlip: {
        orderNumber: order.order_number,
        orderDate: clock.now().toISOString(),
        customerName: 'Ada Lovelace',
        shipTo: ADDRESS,
        lines: [
          { lineId: placed.lines[0], sku: null, name: 'Tee / Blue', variantName: 'Blue', quantity: 1 },
          { lineId: placed.lines[1], sku: null, name: 'Sticker', variantName: null, quantity: 1 },
        ],
      },
      labelEligibility: { canPrint: false, canPurchase: true, reason: 'NO_POSTAGE' },
    });
    expect(JSON.stringify(page)).not.toContain('Gate code');
    const readyRow = page.data.find((candidate) => candidate.fulfillmentId === ready)!;
    expect(readyRow.postage).toMatchObject({ source: 'NATIVE', status: 'ACTIVE', carrier: 'sandbox' });
    expect(readyRow.labelEligibility).toEqual({ canPrint: true, canPurchase: false, reason: null });

    // The statement count does not grow with the page.
    const small = counted(handle.db);
    await listWarehouseOutputs(small.db, shop.organizationId, warehouseOutputListQuerySchema.parse({}));
    for (let index = 0; index < 6; index += 1) await plan(shop, await placeOrder(shop));
    const large = counted(handle.db);
    const bigger = await listWarehouseOutputs(
      large.db,
      shop.organizationId,
      warehouseOutputListQuerySchema.parse({}),
    );
    expect(bigger.data).toHaveLength(8);
    expect(large.count()).toBe(small.count());
    expect(large.count()).toBe(2);
  });

  it('filters by status and pages by id; a cursor must name a fulfillment of the organization', async () => {
    const shop = await createOrderTenant(handle.db, clock);
    const planned = [await plan(shop, await placeOrder(shop)), await plan(shop, await placeOrder(shop))];
    const ready = await printable(shop, await placeOrder(shop));
    expect((await list(shop, { status: 'READY' })).data.map((row) => row.fulfillmentId)).toEqual([ready]);
    expect((await list(shop, { status: 'PLANNED' })).data.map((row) => row.fulfillmentId)).toEqual(planned);
    expect((await list(shop, { status: 'READY,PLANNED' })).data).toHaveLength(3);

    const all = [...planned, ready].sort();
    const first = await list(shop, { limit: 2 });
    expect(first.data.map((row) => row.fulfillmentId)).toEqual(all.slice(0, 2));
    expect(first.nextCursor).toBe(all[1]);
    const second = await list(shop, { limit: 2, cursor: first.nextCursor });
    expect(second.data.map((row) => row.fulfillmentId)).toEqual(all.slice(2));
    expect(second.nextCursor).toBeNull();

    const unknown = await failureOf(list(shop, { cursor: 'ful_unknown' }));
    expect(unknown.code).toBe('VALIDATION_FAILED');
    expect(() => warehouseOutputListQuerySchema.parse({ status: 'SHIPPED' })).toThrow();
    expect(() => warehouseOutputListQuerySchema.parse({ status: ',' })).toThrow();
  });

  it("gives each label-eligibility reason; another organization's rows never appear", async () => {
    const shop = await createOrderTenant(handle.db, clock);
    const reasonOf = async (id: string) =>
      (await list(shop)).data.find((row) => row.fulfillmentId === id)?.labelEligibility;
    const at = clock.now();
    const organizationId = shop.organizationId;

    const noShipTo = await plan(shop, await placeOrder(shop, { address: null }));
    expect(await reasonOf(noShipTo)).toEqual({
      canPrint: false,
      canPurchase: false,
      reason: 'SHIP_TO_ADDRESS_MISSING',
    });
    const unsettled = await plan(shop, await placeOrder(shop));
    await seedUnsettledPurchase(handle.db, { organizationId, fulfillmentId: unsettled, at });
    expect(await reasonOf(unsettled)).toMatchObject({ canPurchase: false, reason: 'PURCHASE_UNSETTLED' });

    const external = await plan(shop, await placeOrder(shop));
    await seedLabel(handle.db, { organizationId, fulfillmentId: external, at, source: 'EXTERNAL' });
    expect(await reasonOf(external)).toEqual({
      canPrint: false,
      canPurchase: false,
      reason: 'EXTERNAL_POSTAGE',
    });

    const voidPending = await plan(shop, await placeOrder(shop));
    await seedLabel(handle.db, {
      organizationId,
      fulfillmentId: voidPending,
      at,
      status: 'VOID_PENDING',
      label: { bytes: await labelPdf() },
    });
    expect(await reasonOf(voidPending)).toMatchObject({ canPrint: false, reason: 'VOID_PENDING' });

    const missing = await printable(shop, await placeOrder(shop), null);
    expect(await reasonOf(missing)).toEqual({ canPrint: false, canPurchase: false, reason: 'LABEL_MISSING' });
    const legacy = await plan(shop, await placeOrder(shop));
    await seedLabel(handle.db, { organizationId, fulfillmentId: legacy, at, source: 'LEGACY' });
    expect(await reasonOf(legacy)).toMatchObject({ canPrint: false, reason: 'LABEL_MISSING' });

    const voided = await plan(shop, await placeOrder(shop));
    const seeded = await seedLabel(handle.db, {
      organizationId,
      fulfillmentId: voided,
      at,
      label: { bytes: await labelPdf() },
    });
    await voidPostage(handle.db, organizationId, seeded.postageId, at);
    expect(await reasonOf(voided)).toEqual({ canPrint: false, canPurchase: true, reason: 'POSTAGE_RETIRED' });
    expect((await list(shop)).data.find((row) => row.fulfillmentId === voided)?.postage).toBeNull();

    const other = await createOrderTenant(handle.db, clock);
    await plan(other, await placeOrder(other));
    expect((await list(other)).data).toHaveLength(1);
    expect((await list(shop)).data).toHaveLength(7);
  });
});

describe('CSV export (exportWarehouseCsv)', () => {
  it('answers a row per line in request order, RFC 4180 with CRLF, formulas neutralised, and audits', async () => {
    const shop = await createOrderTenant(handle.db, clock);
    const hostile = {
      name: '=HYPERLINK("http://evil.example","x")',
      line1: '+1 Main St',
      line2: '-2 floor',
      city: '@SUM(A1)',
      state: '\tTabbed',
      postalCode: '\r1000',
      country: 'PT',
      phone: null,
    };
    const first = await printable(shop, await placeOrder(shop, { names: ['Tee, "large"', 'Line\nbreak'] }));
    const second = await plan(shop, await placeOrder(shop, { address: hostile }), [2, 0]);

    const csv = await exportWarehouseCsv(handle.db, ctxOf(shop), selection([second, first]));
    expect(csv.endsWith('\r\n')).toBe(true);
    expect(csv.split('\r\n')[0]).toBe(WAREHOUSE_CSV_COLUMNS.join(','));
    // Quotes doubled inside a quoted cell; a line break only inside quotes.
    expect(csv).toContain('"Tee, ""large"""');
    expect(csv).toContain('"Line\nbreak"');
    const records = parseCsv(csv);
    expect(records.map((record) => [record.fulfillmentId, record.quantity])).toEqual([
      [second, '2'],
      [first, '1'],
      [first, '1'],
    ]);
    expect(records[0]).toMatchObject({
      status: 'PLANNED',
      recipientName: `'${hostile.name}`,
      line1: "'+1 Main St",
      line2: "'-2 floor",
      city: "'@SUM(A1)",
      state: "'\tTabbed",
      postalCode: "'\r1000",
      country: 'PT',
      itemName: 'Tee / Blue',
      variantName: 'Blue',
      carrier: '',
      labelPrintable: 'false',
    });
    expect(records[1]).toMatchObject({
      status: 'READY',
      recipientName: 'Ada Lovelace',
      itemName: 'Tee, "large"',
      carrier: 'sandbox',
      service: 'GROUND',
      labelPrintable: 'true',
    });
    expect(records[2]).toMatchObject({ itemName: 'Line\nbreak', variantName: '' });
    expect(csv).not.toContain('Gate code');

    const audits = await auditsOf(shop, 'warehouse.csv_exported');
    expect(audits).toEqual([
      {
        metadata: { count: 2, fulfillmentIds: [second, first] },
        actor_user_id: 'usr_orders_test',
        target_type: 'warehouse_output',
      },
    ]);
  });

  it('refuses the whole selection listing every failure in request order, and audits nothing', async () => {
    const shop = await createOrderTenant(handle.db, clock);
    const other = await createOrderTenant(handle.db, clock);
    const placed = await placeOrder(shop);
    const good = await plan(shop, placed);
    const shippedId = await shipped(shop, placed);
    const cancelledId = await cancelled(shop, await placeOrder(shop));
    const foreign = await plan(other, await placeOrder(other));

    const error = await failureOf(
      exportWarehouseCsv(
        handle.db,
        ctxOf(shop),
        selection([foreign, good, 'ful_unknown', shippedId, cancelledId]),
      ),
    );
    expect(error.code).toBe('WAREHOUSE_SELECTION_REJECTED');
    expect(error.details).toEqual({
      failures: [
        { fulfillmentId: foreign, reason: 'NOT_FOUND' },
        { fulfillmentId: 'ful_unknown', reason: 'NOT_FOUND' },
        { fulfillmentId: shippedId, reason: 'NOT_A_WAREHOUSE_OUTPUT' },
        { fulfillmentId: cancelledId, reason: 'NOT_A_WAREHOUSE_OUTPUT' },
      ],
    });
    expect(await auditsOf(shop, 'warehouse.csv_exported')).toEqual([]);
  });

  it('takes 1 to 50 distinct ids', () => {
    const ids = (count: number) => Array.from({ length: count }, (_, index) => `ful_${index}`);
    expect(warehouseSelectionInputSchema.safeParse({ fulfillmentIds: ids(50) }).success).toBe(true);
    expect(warehouseSelectionInputSchema.safeParse({ fulfillmentIds: ids(51) }).success).toBe(false);
    expect(warehouseSelectionInputSchema.safeParse({ fulfillmentIds: [] }).success).toBe(false);
    const repeated = warehouseSelectionInputSchema.safeParse({ fulfillmentIds: ['ful_a', 'ful_b', 'ful_a'] });
    expect(repeated.error?.issues.map((issue) => issue.path.join('.'))).toEqual(['fulfillmentIds.2']);
    expect(warehouseSelectionInputSchema.safeParse({ fulfillmentIds: ['ful_a'], extra: 1 }).success).toBe(
      false,
    );
  });
});

/** Every dictionary of a document, direct or indirect. */
function dictionariesOf(document: PDFDocument): PDFDict[] {
  const found: PDFDict[] = [];
  const visit = (value: unknown) => {
    if (value instanceof PDFDict) {
      found.push(value);
      for (const [, entry] of value.entries()) visit(entry);
    } else if (value instanceof PDFArray) for (const entry of value.asArray()) visit(entry);
  };
  for (const [, object] of document.context.enumerateIndirectObjects()) {
    visit(object);
    // A stream's dictionary (content streams, object streams).
    if (object instanceof PDFRawStream || object instanceof PDFStream) visit(object.dict);
  }
  visit(document.context.trailerInfo.Root);
  return found;
}

/** A one-page label carrying a JavaScript link annotation, page actions and an OpenAction. */
async function labelWithActions(): Promise<Uint8Array> {
  const document = await PDFDocument.load(await labelPdf());
  const { context } = document;
  const script = context.obj({ S: 'JavaScript', JS: PDFString.of('app.alert("hi")') });
  const annotation = context.register(
    context.obj({ Type: 'Annot', Subtype: 'Link', Rect: [0, 0, 100, 100], A: script }),
  );
  const page = document.getPage(0);
  page.node.set(PDFName.of('Annots'), context.obj([annotation]));
  page.node.set(PDFName.of('AA'), context.obj({ O: script }));
  document.catalog.set(PDFName.of('OpenAction'), script);
  return document.save();
}

async function encryptedPdf(): Promise<Uint8Array> {
  const document = await PDFDocument.create();
  document.addPage([288, 432]);
  document.context.trailerInfo.Encrypt = document.context.obj({ Filter: 'Standard', V: 1, R: 2, P: -4 });
  return document.save({ useObjectStreams: false });
}

describe('labels PDF batch (printLabelBatch)', () => {
  it('copies the stored pages in request order into one document, pages only, and audits', async () => {
    const shop = await createOrderTenant(handle.db, clock);
    const twoPages = await printable(shop, await placeOrder(shop), {
      bytes: await labelPdf(2, { size: [300, 450] }),
    });
    const sandbox = await printable(shop, await placeOrder(shop));
    const scripted = await printable(shop, await placeOrder(shop), { bytes: await labelWithActions() });

    const bytes = await printLabelBatch(handle.db, ctxOf(shop), selection([sandbox, twoPages, scripted]));
    const batch = await PDFDocument.load(bytes);
    expect(batch.getPageCount()).toBe(4);
    expect(batch.getPages().map((page) => [page.getWidth(), page.getHeight()])).toEqual([
      [288, 432],
      [300, 450],
      [300, 450],
      [288, 432],
    ]);
    const keys = new Set(dictionariesOf(batch).flatMap((dict) => dict.keys().map((key) => key.decodeText())));
    for (const key of ['Annots', 'AA', 'OpenAction', 'JS', 'EmbeddedFiles', 'AcroForm'])
      expect(keys).not.toContain(key);

    const audits = await auditsOf(shop, 'warehouse.labels_printed');
    expect(audits.map((audit) => audit.metadata)).toEqual([
      { count: 3, fulfillmentIds: [sandbox, twoPages, scripted] },
    ]);
  });

  it('refuses the batch for every state that has no printable label, listing each failure in request order', async () => {
    const shop = await createOrderTenant(handle.db, clock);
    const other = await createOrderTenant(handle.db, clock);
    const organizationId = shop.organizationId;
    const at = clock.now();
    const good = await printable(shop, await placeOrder(shop));
    const planned = await plan(shop, await placeOrder(shop));
    const external = await plan(shop, await placeOrder(shop));
    await seedLabel(handle.db, { organizationId, fulfillmentId: external, at, source: 'EXTERNAL' });
    const legacy = await plan(shop, await placeOrder(shop));
    await seedLabel(handle.db, { organizationId, fulfillmentId: legacy, at, source: 'LEGACY' });
    const voided = await plan(shop, await placeOrder(shop));
    const voidedLabel = await seedLabel(handle.db, {
      organizationId,
      fulfillmentId: voided,
      at,
      label: { bytes: await labelPdf() },
    });
    await voidPostage(handle.db, organizationId, voidedLabel.postageId, at);
    const voidPending = await plan(shop, await placeOrder(shop));
    await seedLabel(handle.db, {
      organizationId,
      fulfillmentId: voidPending,
      at,
      status: 'VOID_PENDING',
      label: { bytes: await labelPdf() },
    });
    const missing = await printable(shop, await placeOrder(shop), null);
    const foreign = await printable(other, await placeOrder(other));
    const shippedId = await shipped(shop, await placeOrder(shop));

    const error = await failureOf(
      printLabelBatch(
        handle.db,
        ctxOf(shop),
        selection([
          missing,
          good,
          foreign,
          planned,
          external,
          legacy,
          voided,
          voidPending,
          shippedId,
          'ful_x',
        ]),
      ),
    );
    expect(error.code).toBe('LABEL_BATCH_REJECTED');
    expect(error.details).toEqual({
      failures: [
        { fulfillmentId: missing, reason: 'LABEL_MISSING' },
        { fulfillmentId: foreign, reason: 'NOT_FOUND' },
        { fulfillmentId: planned, reason: 'NOT_READY' },
        { fulfillmentId: external, reason: 'NO_NATIVE_POSTAGE' },
        { fulfillmentId: legacy, reason: 'NO_NATIVE_POSTAGE' },
        { fulfillmentId: voided, reason: 'NO_NATIVE_POSTAGE' },
        { fulfillmentId: voidPending, reason: 'VOID_PENDING' },
        { fulfillmentId: shippedId, reason: 'NOT_READY' },
        { fulfillmentId: 'ful_x', reason: 'NOT_FOUND' },
      ],
    });
    expect(await auditsOf(shop, 'warehouse.labels_printed')).toEqual([]);
    // The other organization's own label prints for it.
    expect(
      (
        await PDFDocument.load(await printLabelBatch(handle.db, ctxOf(other), selection([foreign])))
      ).getPageCount(),
    ).toBe(1);
  });

  it('keeps a label with an open shipment cancellation (PENDING or EXHAUSTED) out of the list and the batch', async () => {
    const shop = await createOrderTenant(handle.db, clock);
    const organizationId = shop.organizationId;
    const at = clock.now();
    const good = await printable(shop, await placeOrder(shop));
    const open: Record<'PENDING' | 'EXHAUSTED', string> = { PENDING: '', EXHAUSTED: '' };
    for (const status of ['PENDING', 'EXHAUSTED'] as const) {
      const fulfillmentId = await plan(shop, await placeOrder(shop));
      const { postageId } = await seedLabel(handle.db, {
        organizationId,
        fulfillmentId,
        at,
        label: { bytes: await labelPdf() },
      });
      await seedOpenCancellation(handle.db, { organizationId, fulfillmentId, postageId, at, status });
      open[status] = fulfillmentId;
    }
    const rows = (await list(shop)).data;
    const reasonOf = (id: string) => rows.find((row) => row.fulfillmentId === id)?.labelEligibility;
    // The postage is still ACTIVE: only the open cancellation stands in the way.
    expect(reasonOf(good)).toEqual({ canPrint: true, canPurchase: false, reason: null });
    expect(reasonOf(open.PENDING)).toEqual({ canPrint: false, canPurchase: false, reason: 'VOID_PENDING' });
    expect(reasonOf(open.EXHAUSTED)).toEqual({ canPrint: false, canPurchase: false, reason: 'VOID_PENDING' });
    const error = await failureOf(
      printLabelBatch(handle.db, ctxOf(shop), selection([good, open.PENDING, open.EXHAUSTED])),
    );
    expect(error.details).toEqual({
      failures: [
        { fulfillmentId: open.PENDING, reason: 'VOID_PENDING' },
        { fulfillmentId: open.EXHAUSTED, reason: 'VOID_PENDING' },
      ],
    });
  });

  it('fails the whole batch on any unsafe label: bad hash, not a PDF, 5 pages, encrypted, broken, wrong type', async () => {
    const shop = await createOrderTenant(handle.db, clock);
    const good = await labelPdf();
    const unsafe = {
      badHash: { bytes: good, sha256: '0'.repeat(64) },
      notPdf: { bytes: new TextEncoder().encode('<html>label</html>') },
      fivePages: { bytes: await labelPdf(5) },
      encrypted: { bytes: await encryptedPdf() },
      broken: { bytes: good.subarray(0, Math.floor(good.byteLength / 3)) },
      wrongType: { bytes: good, contentType: 'image/png' },
    };
    const printableId = await printable(shop, await placeOrder(shop));
    const ids: Record<string, string> = {};
    for (const [name, label] of Object.entries(unsafe)) {
      ids[name] = await printable(shop, await placeOrder(shop), label);
      const error = await failureOf(
        printLabelBatch(handle.db, ctxOf(shop), selection([printableId, ids[name]!])),
      );
      expect(error.code, name).toBe('LABEL_BATCH_REJECTED');
      expect(error.details, name).toEqual({
        failures: [{ fulfillmentId: ids[name], reason: 'LABEL_UNSAFE' }],
      });
    }
    const all = await failureOf(
      printLabelBatch(handle.db, ctxOf(shop), selection([...Object.values(ids).reverse(), printableId])),
    );
    expect(
      (all.details as { failures: { fulfillmentId: string }[] }).failures.map((f) => f.fulfillmentId),
    ).toEqual(Object.values(ids).reverse());
    expect(await auditsOf(shop, 'warehouse.labels_printed')).toEqual([]);
  });
});

/**
 * A label at the carrier's limits: 4 pages of `width` points, just under 2 MiB, each page's content a
 * stream of PDF comment lines that do not compress.
 */
async function carrierLimitLabel(width: number): Promise<Uint8Array> {
  const document = await PDFDocument.create();
  for (let index = 0; index < 4; index++) {
    const page = document.addPage([width, 432]);
    const lines = randomBytes(250_000)
      .toString('hex')
      .match(/.{1,120}/g)!;
    const content = new TextEncoder().encode(lines.map((line) => `% ${line}\n`).join(''));
    const stream = PDFRawStream.of(document.context.obj({ Length: content.byteLength }), content);
    page.node.set(PDFName.of('Contents'), document.context.register(stream));
  }
  return document.save();
}

describe('labels PDF batch, streamed (streamLabelBatch)', () => {
  it('writes a batch of carrier-limit labels label by label, in request order, never the whole at once', async () => {
    const shop = await createOrderTenant(handle.db, clock);
    const ids: string[] = [];
    // 6 labels of about 2 MiB: more than one read group (8 MiB), so the labels are read again to be written.
    for (let index = 0; index < 6; index++) {
      const bytes = await carrierLimitLabel(200 + index);
      expect(bytes.byteLength).toBeGreaterThan(1_900_000);
      expect(bytes.byteLength).toBeLessThanOrEqual(2 * 1024 * 1024);
      ids.push(await printable(shop, await placeOrder(shop), { bytes }));
    }
    const chunks: Uint8Array[] = [];
    for await (const chunk of streamLabelBatch(handle.db, ctxOf(shop), selection(ids))) chunks.push(chunk);
    // The header, one chunk per label (its pages), then the page tree and the cross-reference table.
    expect(chunks).toHaveLength(1 + ids.length + 1);
    expect(Math.max(...chunks.map((chunk) => chunk.byteLength))).toBeLessThan(2.2 * 1024 * 1024);
    const batch = await PDFDocument.load(Buffer.concat(chunks));
    expect(batch.getPageCount()).toBe(24);
    expect(batch.getPages().map((page) => page.getWidth())).toEqual(
      [200, 201, 202, 203, 204, 205].flatMap((width) => [width, width, width, width]),
    );
    expect(batch.getTitle()).toBe('Shipping labels (6)');
  }, 60_000);

  it('refuses before the first chunk: nothing is sent for a refused batch', async () => {
    const shop = await createOrderTenant(handle.db, clock);
    const good = await printable(shop, await placeOrder(shop));
    const iterator = streamLabelBatch(handle.db, ctxOf(shop), selection([good, 'ful_missing']))[
      Symbol.asyncIterator
    ]();
    const error = await iterator.next().then(
      () => undefined,
      (reason: unknown) => reason,
    );
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).code).toBe('LABEL_BATCH_REJECTED');
  });
});
