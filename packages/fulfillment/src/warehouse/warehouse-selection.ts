import { AppError } from '@commerce/core';
import type { Database } from '@commerce/db';
import type { Kysely } from 'kysely';
import { readWarehouseRows, type WarehouseRow } from './warehouse-rows.ts';

/** The selected rows of the organization, by id; unknown and foreign ids are simply absent. */
export async function readSelectedRows(
  db: Kysely<Database>,
  organizationId: string,
  fulfillmentIds: readonly string[],
): Promise<Map<string, WarehouseRow>> {
  const rows = await readWarehouseRows(db, organizationId, (qb) =>
    qb.where('fulfillments.id', 'in', [...fulfillmentIds]),
  );
  return new Map(rows.map((row) => [row.id, row]));
}

/** The refusal of a whole selection: every failing id, in request order. */
export function selectionRefused<Reason extends string>(
  code: 'WAREHOUSE_SELECTION_REJECTED' | 'LABEL_BATCH_REJECTED',
  failures: { fulfillmentId: string; reason: Reason }[],
): AppError {
  const message =
    code === 'WAREHOUSE_SELECTION_REJECTED'
      ? `${failures.length} selected fulfillment(s) cannot be exported; nothing was exported`
      : `${failures.length} selected fulfillment(s) have no printable label; nothing was printed`;
  return new AppError(code, message, { failures });
}

/** `YYYYMMDDTHHMMSSZ`, the UTC stamp of an output's file name. */
export function fileStamp(at: Date): string {
  return `${at.toISOString().slice(0, 19).replace(/[-:]/g, '')}Z`;
}
