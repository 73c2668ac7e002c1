import { AppError, formatMoney, type ValidationIssue } from '@commerce/core';
import { type Database, inTransaction, type SalesLineType } from '@commerce/db';
import { type CustomerEmailConfig, customerLink, enqueueTemplatedEmail } from '@commerce/notifications';
import type { Kysely } from 'kysely';
import { lineTypeOf, RENTAL_LINE_MESSAGE } from '../sales-records/line-types.ts';
import { recordSale } from '../sales-records/record-sale.ts';
import { toOrderLineRead, toPublicOrderRead } from './order-read.ts';
import { issueOrderStatusToken } from './order-status-tokens.ts';
import { projectOrder } from './project-order.ts';
import type { CreatedLegacyOrder, CreateLegacyOrderInput } from './schemas.ts';

export interface LegacyOrderScope {
  organizationId: string;
  /** The store's checkout currency (settings `checkoutSettings.currency`). */
  currency: string;
  /** Where the confirmation's order-status link points and who sends it. */
  email: CustomerEmailConfig;
  at: Date;
}

/** The hosted page of an order-status link; it posts the token to `POST /public/order-status`. */
export function orderStatusPath(token: string): string {
  return `/order-status?token=${token}`;
}

/**
 * The legacy `POST /public/orders`: the client's names and prices, as the
 * spec keeps them on this path, for items (and variants) that must be ACTIVE
 * and unarchived in the organization, and not rentals. Totals: subtotal is the
 * sum of the lines, tax 0, no shipping, no discount, total = subtotal. In one
 * transaction: the sales record and its lines (PRODUCT for a SALE item,
 * SERVICE for a SERVICE item), the order projecting
 * it with the next order number, a read-only `o1_` status token and the
 * ORDER_CONFIRMATION email carrying it. Stock is not touched: inventory is
 * consumed by fulfillment, and reserved by checkout, not by this path.
 */
export async function createLegacyOrder(
  db: Kysely<Database>,
  scope: LegacyOrderScope,
  input: CreateLegacyOrderInput,
): Promise<CreatedLegacyOrder> {
  return inTransaction(db, async (trx) => {
    const lineTypes = await orderableLineTypes(trx, scope.organizationId, input.items);
    const customer = {
      name: input.customerName,
      email: input.customerEmail,
      phone: input.customerPhone ? input.customerPhone : null,
    };
    const sale = await recordSale(trx, {
      organizationId: scope.organizationId,
      source: 'LEGACY_ORDER',
      currency: scope.currency,
      customer,
      lines: input.items.map((line, index) => ({
        type: lineTypes[index]!,
        itemId: line.itemId,
        variantId: line.variantId ?? null,
        name: line.name,
        quantity: line.quantity,
        unitPriceInCents: line.unitPriceInCents,
      })),
      shippingInCents: 0,
      taxInCents: 0,
      taxIncluded: false,
      discountInCents: 0,
      paymentStatus: 'NOT_REQUIRED',
      at: scope.at,
    });
    const order = await projectOrder(trx, sale, { notes: input.notes ? input.notes : null, at: scope.at });
    const token = await issueOrderStatusToken(trx, {
      organizationId: scope.organizationId,
      orderId: order.id,
      at: scope.at,
    });
    await enqueueTemplatedEmail(trx, {
      organizationId: scope.organizationId,
      type: 'ORDER_CONFIRMATION',
      to: customer.email,
      values: {
        'customer.name': customer.name,
        'order.number': String(order.order_number),
        'order.total': formatMoney(order.total_in_cents, order.currency),
        'order.itemCount': String(order.item_count),
      },
      links: { action: customerLink(scope.email, orderStatusPath(token)) },
      emailFrom: scope.email.emailFrom,
      metadata: { orderId: order.id, orderNumber: order.order_number },
      at: scope.at,
    });
    return { ...toPublicOrderRead(order, sale.lines.map(toOrderLineRead)), orderStatusToken: token };
  });
}

/**
 * Every line must name an ACTIVE, unarchived item of the organization that is
 * not a RENTAL and, when it names a variant, a non-archived variant of that
 * item. Unknown, draft, archived and foreign ids get the same message; every
 * bad line is reported. Answers each line's type, in line order.
 */
async function orderableLineTypes(
  db: Kysely<Database>,
  organizationId: string,
  lines: CreateLegacyOrderInput['items'],
): Promise<SalesLineType[]> {
  const itemIds = [...new Set(lines.map((line) => line.itemId))];
  const variantIds = [...new Set(lines.flatMap((line) => (line.variantId ? [line.variantId] : [])))];
  const [items, variants] = await Promise.all([
    db
      .selectFrom('items')
      .select(['id', 'type'])
      .where('organization_id', '=', organizationId)
      .where('id', 'in', itemIds)
      .where('status', '=', 'ACTIVE')
      .where('archived_at', 'is', null)
      .execute(),
    variantIds.length === 0
      ? Promise.resolve([])
      : db
          .selectFrom('variants')
          .select(['id', 'item_id'])
          .where('organization_id', '=', organizationId)
          .where('id', 'in', variantIds)
          .where('archived_at', 'is', null)
          .execute(),
  ]);
  const typeOfItem = new Map(items.map((item) => [item.id, lineTypeOf(item.type)]));
  const itemOfVariant = new Map(variants.map((variant) => [variant.id, variant.item_id]));
  const issues: ValidationIssue[] = [];
  const types: SalesLineType[] = [];
  lines.forEach((line, index) => {
    const type = typeOfItem.get(line.itemId);
    if (type === undefined) {
      issues.push({ path: `items.${index}.itemId`, message: 'does not name an available item' });
    } else if (type === null) {
      issues.push({ path: `items.${index}.itemId`, message: RENTAL_LINE_MESSAGE });
    } else if (line.variantId && itemOfVariant.get(line.variantId) !== line.itemId) {
      issues.push({
        path: `items.${index}.variantId`,
        message: 'does not name an available variant of the item',
      });
    } else {
      types.push(type);
    }
  });
  if (issues.length > 0) throw AppError.validation(issues);
  return types;
}
