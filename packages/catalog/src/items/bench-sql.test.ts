import type { Database } from '@commerce/db';
import {
  type CompiledQuery,
  DummyDriver,
  Kysely,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
} from 'kysely';
import { describe, expect, it } from 'vitest';
import { SQL } from '../../../../bench/bare-sql.ts';
import { getPublicItem } from './get-public-item.ts';
import { listPublicItems } from './list-public-items.ts';
import { publicItemListQuerySchema } from './schemas.ts';

/** What the storefront reads send, compiled by a Kysely that runs nothing. */
async function sentBy(read: (db: Kysely<Database>) => Promise<unknown>): Promise<CompiledQuery[]> {
  const sent: CompiledQuery[] = [];
  const db = new Kysely<Database>({
    dialect: {
      createAdapter: () => new PostgresAdapter(),
      createDriver: () => new DummyDriver(),
      createIntrospector: (inner) => new PostgresIntrospector(inner),
      createQueryCompiler: () => new PostgresQueryCompiler(),
    },
    log: (event) => {
      if (event.level === 'query') sent.push(event.query);
    },
  });
  await read(db).catch(() => undefined);
  return sent;
}

// The benches' bare server (bench/bare-server.ts) runs these texts as the ceiling the gateway is
// measured against: when a storefront read's statement changes, its copy in bench/bare-sql.ts must
// change with it, or the bench compares different queries.
describe("the storefront reads send exactly the bench's bare-server texts", () => {
  it('the item list', async () => {
    const sent = await sentBy((db) =>
      listPublicItems(db, 'org_check', publicItemListQuerySchema.parse({ limit: 50 })),
    );
    expect(sent.map((query) => [query.sql, query.parameters])).toEqual([
      [SQL.publicItems, ['org_check', 'ACTIVE', 51, 'org_check', 'org_check', 'org_check']],
    ]);
  });

  it('the item page', async () => {
    const sent = await sentBy((db) => getPublicItem(db, 'org_check', 'some-item'));
    expect(sent.map((query) => [query.sql, query.parameters])).toEqual([
      [
        SQL.publicItem,
        ['org_check', 'some-item', 'ACTIVE', 'org_check', 'org_check', 'org_check', 'org_check'],
      ],
    ]);
  });
});
