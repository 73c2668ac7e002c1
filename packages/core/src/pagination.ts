import type { Expression, ExpressionBuilder, ReferenceExpression, SqlBool } from 'kysely';
import { z } from 'zod';

/**
 * Keyset pagination (docs/api.md "Pagination"). A page is fetched with
 * `limit + 1` rows; the extra row only says that another page exists. The
 * cursor is the id of the last row returned, which the service resolves to
 * that row's sort values and turns into a `WHERE` with `keysetAfter`.
 */
export const DEFAULT_PAGE_LIMIT = 50;
export const MAX_PAGE_LIMIT = 200;

export const limitSchema = z.coerce
  .number({ error: 'limit must be an integer from 1 to 200' })
  .int('limit must be an integer from 1 to 200')
  .min(1, 'limit must be an integer from 1 to 200')
  .max(MAX_PAGE_LIMIT, 'limit must be an integer from 1 to 200')
  .default(DEFAULT_PAGE_LIMIT);

export const cursorSchema = z.string().min(1).max(64);

export const pageQuerySchema = z.object({
  limit: limitSchema,
  cursor: cursorSchema.optional(),
});
export type PageQuery = z.infer<typeof pageQuerySchema>;

export interface Page<T> {
  data: T[];
  nextCursor: string | null;
}

export function pageSchema<T extends z.ZodType>(item: T) {
  return z.object({ data: z.array(item), nextCursor: z.string().nullable() });
}

/** Cuts a `limit + 1` result down to one page and names the cursor of the next one. */
export function toPage<T extends { id: string }>(rows: T[], limit: number): Page<T> {
  if (rows.length <= limit) return { data: rows, nextCursor: null };
  const data = rows.slice(0, limit);
  return { data, nextCursor: data[data.length - 1]!.id };
}

export interface SortKey<DB, TB extends keyof DB> {
  column: ReferenceExpression<DB, TB>;
  direction: 'asc' | 'desc';
  /** The cursor row's value for this column. */
  value: unknown;
}

/**
 * The predicate "comes after the cursor row" for an ordering of several keys,
 * each ascending or descending: (k1 > v1) OR (k1 = v1 AND k2 > v2) OR ...
 * The last key must be unique (the id) so that the order is total.
 */
export function keysetAfter<DB, TB extends keyof DB>(
  eb: ExpressionBuilder<DB, TB>,
  keys: SortKey<DB, TB>[],
): Expression<SqlBool> {
  const branches = keys.map((key, index) => {
    const equalities = keys
      .slice(0, index)
      .map((previous) => eb(previous.column, '=', eb.val(previous.value) as never));
    const beyond = eb(key.column, key.direction === 'asc' ? '>' : '<', eb.val(key.value) as never);
    return eb.and([...equalities, beyond]);
  });
  return eb.or(branches);
}
