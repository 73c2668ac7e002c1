import { AppError, type ValidationIssue } from '@commerce/core';
import { type Database, inTransaction, recordAudit } from '@commerce/db';
import { type Kysely, sql } from 'kysely';
import type { ItemWriteContext } from './context.ts';

import type { ReorderItemsInput, ReorderItemsResult } from './schemas.ts';

/** How many offending ids an error message names. */
const LISTED_IDS = 20;

const listed = (ids: string[]) =>
  ids.length <= LISTED_IDS
    ? ids.join(', ')
    : `${ids.slice(0, LISTED_IDS).join(', ')} and ${ids.length - LISTED_IDS} more`;

/**
 * Sets every non-archived item's sortOrder to its index in `orderedIds`, in
 * one transaction. The list must be exactly the organization's non-archived
 * items, each once; anything else (a duplicate, a missing item, an unknown,
 * foreign or archived id) is `VALIDATION_FAILED` and changes nothing. The
 * check runs on the rows locked `for update` (in id order, so concurrent
 * reorders queue instead of deadlocking): an archive, restore or edit waits
 * for the reorder, and an archive that committed first removes its item from
 * the set. A create or restore that commits while the reorder runs is
 * ordered after it (sortOrder untouched). Only rows whose position changes are
 * written; a reorder that changes something is audited as `item.reordered`.
 */
export async function reorderItems(
  db: Kysely<Database>,
  ctx: ItemWriteContext,
  input: ReorderItemsInput,
): Promise<ReorderItemsResult> {
  const ids = input.orderedIds;
  const positions = new Map<string, number>();
  const issues: ValidationIssue[] = [];
  ids.forEach((id, index) => {
    const first = positions.get(id);
    if (first === undefined) positions.set(id, index);
    else issues.push({ path: `orderedIds.${index}`, message: `repeats ${id} (first at index ${first})` });
  });
  if (issues.length > 0) throw AppError.validation(issues, 'orderedIds lists an item more than once');

  return inTransaction(db, async (trx) => {
    const rows = await trx
      .selectFrom('items')
      .select(['id', 'sort_order'])
      .where('organization_id', '=', ctx.organizationId)
      .where('archived_at', 'is', null)
      .orderBy('id')
      .forUpdate()
      .execute();
    const current = new Map(rows.map((row) => [row.id, row.sort_order]));
    const unknown = ids.filter((id) => !current.has(id));
    const missing = rows.filter((row) => !positions.has(row.id)).map((row) => row.id);
    if (unknown.length > 0) {
      issues.push({
        path: 'orderedIds',
        message: `names ${unknown.length} id(s) that are not non-archived items of the organization: ${listed(unknown)}`,
      });
    }
    if (missing.length > 0) {
      issues.push({
        path: 'orderedIds',
        message: `misses ${missing.length} non-archived item(s): ${listed(missing)}`,
      });
    }
    if (issues.length > 0) {
      throw AppError.validation(issues, "orderedIds must be exactly the organization's non-archived items");
    }

    const changed = ids.filter((id, index) => current.get(id) !== index).length;
    if (changed > 0) {
      await sql`
        update items
        set sort_order = o.position - 1, updated_at = ${ctx.at}
        from jsonb_array_elements_text(${JSON.stringify(ids)}::jsonb) with ordinality as o(id, position)
        where items.organization_id = ${ctx.organizationId}
          and items.id = o.id
          and items.sort_order <> o.position - 1`.execute(trx);
      await recordAudit(trx, {
        organizationId: ctx.organizationId,
        actor: ctx.actor,
        action: 'item.reordered',
        targetType: 'item',
        targetId: null,
        metadata: { itemCount: ids.length, changedCount: changed },
        at: ctx.at,
      });
    }
    return { data: ids.map((id, index) => ({ id, sortOrder: index })) };
  });
}
