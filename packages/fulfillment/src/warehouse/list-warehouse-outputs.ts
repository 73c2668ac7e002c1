import { AppError, type Page } from '@commerce/core';
import type { Database } from '@commerce/db';
import type { Kysely } from 'kysely';
import { WAREHOUSE_STATUSES, type WarehouseOutput, type WarehouseOutputListQuery } from './schemas.ts';
import { readWarehouseRows, toWarehouseOutput } from './warehouse-rows.ts';

/**
 * `GET /merchant/shipping/warehouse-outputs`: the organization's
 * fulfillments not yet handed off (`PLANNED`, `READY`, or the one `status`
 * asks for) by id ascending, keyset-paginated on the id alone (the index
 * `fulfillments_warehouse_idx`), each with its packing slip and label
 * eligibility; two queries per page (three with a cursor). The cursor is the
 * last id of the previous page: it must name a fulfillment of the
 * organization (else 400), whatever its status now, so a page whose last row
 * was handed off meanwhile still leads to the next.
 */
export async function listWarehouseOutputs(
  db: Kysely<Database>,
  organizationId: string,
  query: WarehouseOutputListQuery,
): Promise<Page<WarehouseOutput>> {
  const statuses = query.status ?? [...WAREHOUSE_STATUSES];
  const { cursor } = query;
  if (cursor !== undefined) {
    const known = await db
      .selectFrom('fulfillments')
      .select('id')
      .where('organization_id', '=', organizationId)
      .where('id', '=', cursor)
      .executeTakeFirst();
    if (!known)
      throw AppError.validation([
        { path: 'cursor', message: 'does not name a fulfillment of the organization' },
      ]);
  }
  const rows = await readWarehouseRows(db, organizationId, (qb) =>
    qb
      .where('fulfillments.status', 'in', statuses)
      .$if(cursor !== undefined, (page) => page.where('fulfillments.id', '>', cursor!))
      .orderBy('fulfillments.id')
      .limit(query.limit + 1),
  );
  const shown = rows.slice(0, query.limit);
  return {
    data: shown.map(toWarehouseOutput),
    nextCursor: rows.length > query.limit ? shown[shown.length - 1]!.id : null,
  };
}
