import { type Expression, type SqlBool, sql } from 'kysely';

/**
 * Substring search over name, description and tags. The item service keeps
 * `items.search_text` (the three, one per line, lower-cased) on every write;
 * a search is `search_text like '%' || lower(q) || '%'`, which the trigram GIN
 * index (`items_search_trgm_idx`) serves for three characters or more. Both
 * sides are lower-cased by JavaScript first (Unicode case mapping, whatever
 * the database's collation: PGlite's C locale lower-cases ASCII only), and the
 * database's `lower` leaves a lower-cased text as it is.
 */
export function searchTextOf(item: {
  name: string;
  description: string | null;
  tags: readonly string[];
}): string {
  return [item.name, item.description ?? '', ...item.tags].join('\n').toLowerCase();
}

/** `q` as a LIKE pattern body that matches it literally (LIKE's escape character is `\`). */
export function escapeLikePattern(q: string): string {
  return q.replace(/[\\%_]/g, (character) => `\\${character}`);
}

/** The predicate "the item's search text contains `q`", case-insensitively (`relation` names the items). */
export function searchMatches(q: string, relation: 'items' | 'head' = 'items'): Expression<SqlBool> {
  return sql<SqlBool>`${sql.ref(`${relation}.search_text`)} like ('%' || lower(${escapeLikePattern(q.toLowerCase())}) || '%')`;
}
