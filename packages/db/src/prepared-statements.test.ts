import { CompiledQuery, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, testDatabaseKind } from '../test/database.ts';
import type { DatabaseHandle } from './open-database.ts';
import { PREPARED_MARKER, prepared, statementName } from './prepared-statements.ts';

let handle: DatabaseHandle;

beforeAll(async () => {
  // One connection, so every statement below sees the prepared statements of the one before.
  handle = await createTestDatabase({ poolSize: 1 });
  await handle.db
    .insertInto('organizations')
    .values([
      { id: 'org_A', slug: 'a', name: 'A' },
      { id: 'org_B', slug: 'b', name: 'B' },
    ])
    .execute();
});

afterAll(async () => {
  await handle.close();
});

const bySlug = (slug: string) =>
  handle.db.selectFrom('organizations').select(['id', 'name']).where('slug', '=', slug).compile();

const preparedTexts = async () =>
  (
    await sql<{ statement: string }>`select statement from pg_prepared_statements`.execute(handle.db)
  ).rows.map((row) => row.statement);

describe('prepared', () => {
  it('marks a statement once, and leaves its parameters alone', () => {
    const marked = prepared(bySlug('a'));
    expect(marked.sql).toBe(`${PREPARED_MARKER}${bySlug('a').sql}`);
    expect(marked.parameters).toEqual(['a']);
    expect(prepared(marked).sql).toBe(marked.sql);
  });

  it('runs marked statements with each call’s values, on both engines', async () => {
    const { rows: a } = await handle.db.executeQuery(prepared(bySlug('a')));
    const { rows: b } = await handle.db.executeQuery(prepared(bySlug('b')));
    expect([a, b]).toEqual([[{ id: 'org_A', name: 'A' }], [{ id: 'org_B', name: 'B' }]]);
  });

  it('names each text once, whatever the values', () => {
    const text = prepared(bySlug('a')).sql;
    expect(statementName(text)).toBe(statementName(prepared(bySlug('b')).sql));
    expect(statementName(`${text} `)).not.toBe(statementName(text));
  });

  it.skipIf(testDatabaseKind !== 'postgres')(
    'prepares marked statements on the connection, and only those',
    async () => {
      const unmarked = handle.db
        .selectFrom('organizations')
        .select('slug')
        .where('id', '=', 'org_A')
        .compile();
      await handle.db.executeQuery(unmarked);
      await handle.db.executeQuery(prepared(bySlug('a')));
      await handle.db.executeQuery(prepared(bySlug('b')));
      const texts = await preparedTexts();
      expect(texts).toEqual([prepared(bySlug('a')).sql]);
      expect(texts).not.toContain(unmarked.sql);
    },
  );

  it('still streams through a cursor and runs raw statements', async () => {
    const slugs: string[] = [];
    for await (const row of handle.db.selectFrom('organizations').select('slug').orderBy('slug').stream(1)) {
      slugs.push(row.slug);
    }
    expect(slugs).toEqual(['a', 'b']);
    const { rows } = await handle.db.executeQuery(CompiledQuery.raw('select 1 as one'));
    expect(rows).toEqual([{ one: 1 }]);
  });
});
