import { newId } from '@commerce/core';
import type {
  Database,
  PaymentStatus,
  SalesLineType,
  SalesRecord,
  SalesRecordLine,
  SalesRecordSource,
  ShippingAddressSnapshot,
} from '@commerce/db';
import type { Kysely } from 'kysely';

export interface SaleLineInput {
  type: SalesLineType;
  itemId: string | null;
  variantId: string | null;
  name: string;
  quantity: number;
  unitPriceInCents: number;
}

export interface SaleInput {
  organizationId: string;
  source: SalesRecordSource;
  currency: string;
  customer: { name: string; email: string; phone: string | null };
  lines: readonly SaleLineInput[];
  shippingInCents: number;
  taxInCents: number;
  /** The prices hold the tax: it is recorded, not added to the total. */
  taxIncluded: boolean;
  discountInCents: number;
  paymentStatus: PaymentStatus;
  /** Where the parcels go, when known at sale (a checkout that collected it). */
  shippingAddress?: ShippingAddressSnapshot | null;
  at: Date;
}

export interface RecordedSale {
  record: SalesRecord;
  lines: SalesRecordLine[];
}

/**
 * The totals of a sale: subtotal is the sum of the lines, total adds shipping
 * and tax (unless the prices include it) and takes the discount.
 */
export function saleTotals(
  input: Pick<SaleInput, 'lines' | 'shippingInCents' | 'taxInCents' | 'taxIncluded' | 'discountInCents'>,
): {
  subtotalInCents: number;
  totalInCents: number;
} {
  const subtotalInCents = input.lines.reduce((sum, line) => sum + line.quantity * line.unitPriceInCents, 0);
  return {
    subtotalInCents,
    totalInCents:
      subtotalInCents +
      input.shippingInCents +
      (input.taxIncluded ? 0 : input.taxInCents) -
      input.discountInCents,
  };
}

/**
 * Writes a sales record and its typed lines: the durable record of what was
 * sold, at what price, in which currency. Call it in the transaction of the
 * projection it feeds (an order, a booking), so that neither exists alone.
 */
export async function recordSale(db: Kysely<Database>, input: SaleInput): Promise<RecordedSale> {
  const totals = saleTotals(input);
  const record = await db
    .insertInto('sales_records')
    .values({
      organization_id: input.organizationId,
      id: newId('sal', input.at),
      source: input.source,
      currency: input.currency,
      customer_name: input.customer.name,
      customer_email: input.customer.email,
      customer_phone: input.customer.phone,
      subtotal_in_cents: totals.subtotalInCents,
      shipping_in_cents: input.shippingInCents,
      tax_in_cents: input.taxInCents,
      tax_included: input.taxIncluded,
      discount_in_cents: input.discountInCents,
      total_in_cents: totals.totalInCents,
      payment_status: input.paymentStatus,
      shipping_address: input.shippingAddress ? JSON.stringify(input.shippingAddress) : null,
      created_at: input.at,
      updated_at: input.at,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  const lines = await db
    .insertInto('sales_record_lines')
    .values(
      input.lines.map((line, position) => ({
        organization_id: input.organizationId,
        id: newId('sli', input.at),
        sales_record_id: record.id,
        position,
        type: line.type,
        item_id: line.itemId,
        variant_id: line.variantId,
        name: line.name,
        quantity: line.quantity,
        unit_price_in_cents: line.unitPriceInCents,
        total_in_cents: line.quantity * line.unitPriceInCents,
        created_at: input.at,
      })),
    )
    .returningAll()
    .execute();
  lines.sort((a, b) => a.position - b.position);
  return { record, lines };
}
