import type { Database } from '@commerce/db';
import type { Kysely } from 'kysely';
import { findOrder, findOrderByNumber, readOrder, readPublicOrder } from './order-read.ts';
import type { OrderRead, PublicOrderRead } from './schemas.ts';

export async function getOrder(
  db: Kysely<Database>,
  organizationId: string,
  orderId: string,
): Promise<OrderRead> {
  return readOrder(db, organizationId, await findOrder(db, organizationId, orderId));
}

export async function getOrderByNumber(
  db: Kysely<Database>,
  organizationId: string,
  orderNumber: number,
): Promise<OrderRead> {
  return readOrder(db, organizationId, await findOrderByNumber(db, organizationId, orderNumber));
}

/** A public read: the same order without `notes` (the caller has checked that public reads are on). */
export async function getPublicOrder(
  db: Kysely<Database>,
  organizationId: string,
  orderId: string,
): Promise<PublicOrderRead> {
  return readPublicOrder(db, organizationId, await findOrder(db, organizationId, orderId));
}

export async function getPublicOrderByNumber(
  db: Kysely<Database>,
  organizationId: string,
  orderNumber: number,
): Promise<PublicOrderRead> {
  return readPublicOrder(db, organizationId, await findOrderByNumber(db, organizationId, orderNumber));
}
