import {
  AndNode,
  BinaryOperationNode,
  ColumnNode,
  DummyDriver,
  expressionBuilder,
  Kysely,
  type OperationNode,
  OperatorNode,
  OrNode,
  ParensNode,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  ReferenceNode,
  ValueNode,
} from 'kysely';
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_PAGE_LIMIT,
  keysetAfter,
  limitSchema,
  MAX_PAGE_LIMIT,
  type Page,
  pageQuerySchema,
  type SortKey,
  toPage,
} from './pagination.ts';

describe('limitSchema', () => {
  it('defaults to 50 and allows 1 to 200', () => {
    expect(DEFAULT_PAGE_LIMIT).toBe(50);
    expect(MAX_PAGE_LIMIT).toBe(200);
    expect(limitSchema.parse(undefined)).toBe(50);
    expect(pageQuerySchema.parse({})).toEqual({ limit: 50 });
  });

  it.each([
    ['1', 1],
    ['200', 200],
    ['50', 50],
    [7, 7],
  ])('accepts %j as %s', (value, expected) => {
    expect(limitSchema.parse(value)).toBe(expected);
  });

  it.each(['0', '201', '1.5', 'abc', '', '-1', 0, 201])('refuses %j', (value) => {
    const result = limitSchema.safeParse(value);
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.message).toBe('limit must be an integer from 1 to 200');
  });

  it('reads a cursor beside the limit and refuses an empty one', () => {
    expect(pageQuerySchema.parse({ limit: '10', cursor: 'itm_1' })).toEqual({ limit: 10, cursor: 'itm_1' });
    expect(pageQuerySchema.safeParse({ cursor: '' }).success).toBe(false);
  });
});

describe('toPage', () => {
  const rows = (count: number) => Array.from({ length: count }, (_, index) => ({ id: `itm_${index}` }));

  it('with limit + 1 rows returns limit rows and the last returned id as the cursor', () => {
    const page = toPage(rows(4), 3);
    expect(page.data.map((row) => row.id)).toEqual(['itm_0', 'itm_1', 'itm_2']);
    expect(page.nextCursor).toBe('itm_2');
  });

  it.each([0, 1, 3])('with %s rows (at most limit 3) returns them all and no cursor', (count) => {
    const page = toPage(rows(count), 3);
    expect(page.data).toHaveLength(count);
    expect(page.nextCursor).toBeNull();
  });
});

interface Row {
  id: string;
  sort_order: number;
  created_at: Date;
}

interface TestDatabase {
  rows: Row;
}

/** A Kysely that only compiles: PostgreSQL syntax, no connection. */
const compileOnly = new Kysely<TestDatabase>({
  dialect: {
    createAdapter: () => new PostgresAdapter(),
    createDriver: () => new DummyDriver(),
    createIntrospector: (db) => new PostgresIntrospector(db),
    createQueryCompiler: () => new PostgresQueryCompiler(),
  },
});

type Ordering = { column: keyof Row; direction: 'asc' | 'desc' }[];

/** sort_order asc, created_at desc, id desc: the last key is unique, so the order is total. */
const THREE_KEYS: Ordering = [
  { column: 'sort_order', direction: 'asc' },
  { column: 'created_at', direction: 'desc' },
  { column: 'id', direction: 'desc' },
];

function keysOf(ordering: Ordering, cursor: Row): SortKey<TestDatabase, 'rows'>[] {
  return ordering.map(({ column, direction }) => ({ column, direction, value: cursor[column] }));
}

describe('keysetAfter SQL', () => {
  it('compiles a 3-key mixed-direction ordering to the expanded OR of ANDs with bound values', () => {
    const cursor: Row = { id: 'itm_CURSOR', sort_order: 4, created_at: new Date('2026-02-03T04:05:06.000Z') };
    const compiled = compileOnly
      .selectFrom('rows')
      .selectAll()
      .where((eb) => keysetAfter(eb, keysOf(THREE_KEYS, cursor)))
      .compile();
    expect(compiled.sql).toBe(
      'select * from "rows" where ("sort_order" > $1' +
        ' or ("sort_order" = $2 and "created_at" < $3)' +
        ' or ("sort_order" = $4 and "created_at" = $5 and "id" < $6))',
    );
    expect(compiled.parameters).toEqual([4, 4, cursor.created_at, 4, cursor.created_at, 'itm_CURSOR']);
  });

  it('uses > for every ascending key and < for every descending one', () => {
    const cursor: Row = { id: 'itm_C', sort_order: 1, created_at: new Date(0) };
    const compiled = compileOnly
      .selectFrom('rows')
      .selectAll()
      .where((eb) =>
        keysetAfter(
          eb,
          keysOf(
            [
              { column: 'sort_order', direction: 'desc' },
              { column: 'id', direction: 'asc' },
            ],
            cursor,
          ),
        ),
      )
      .compile();
    expect(compiled.sql).toBe(
      'select * from "rows" where ("sort_order" < $1 or ("sort_order" = $2 and "id" > $3))',
    );
    expect(compiled.parameters).toEqual([1, 1, 'itm_C']);
  });

  it('binds values instead of inlining them', () => {
    const cursor: Row = { id: "itm_'; drop table rows; --", sort_order: 1, created_at: new Date(0) };
    const compiled = compileOnly
      .selectFrom('rows')
      .selectAll()
      .where((eb) => keysetAfter(eb, keysOf([{ column: 'id', direction: 'asc' }], cursor)))
      .compile();
    expect(compiled.sql).toBe('select * from "rows" where "id" > $1');
    expect(compiled.parameters).toEqual([cursor.id]);
  });
});

/**
 * Interprets the expression tree keysetAfter builds ((k1 > v1) OR (k1 = v1 AND k2 < v2) ...)
 * against one in-memory row. Anything outside that structure fails the test.
 */
function evaluate(node: OperationNode, row: Row): boolean {
  if (ParensNode.is(node)) return evaluate(node.node, row);
  if (OrNode.is(node)) return evaluate(node.left, row) || evaluate(node.right, row);
  if (AndNode.is(node)) return evaluate(node.left, row) && evaluate(node.right, row);
  if (BinaryOperationNode.is(node)) {
    const { leftOperand, operator, rightOperand } = node;
    if (!ReferenceNode.is(leftOperand) || !ColumnNode.is(leftOperand.column)) {
      throw new Error(`unexpected left operand ${leftOperand.kind}`);
    }
    if (!ValueNode.is(rightOperand)) throw new Error(`unexpected right operand ${rightOperand.kind}`);
    if (!OperatorNode.is(operator)) throw new Error(`unexpected operator ${operator.kind}`);
    const column = leftOperand.column.column.name as keyof Row;
    const left = comparable(row[column]);
    const right = comparable(rightOperand.value);
    switch (operator.operator) {
      case '=':
        return left === right;
      case '>':
        return left > right;
      case '<':
        return left < right;
      default:
        throw new Error(`unexpected operator ${operator.operator}`);
    }
  }
  throw new Error(`unexpected node ${node.kind}`);
}

function comparable(value: unknown): number | string {
  if (value instanceof Date) return value.getTime();
  if (typeof value === 'number' || typeof value === 'string') return value;
  throw new Error(`unexpected value ${String(value)}`);
}

function compareRows(ordering: Ordering, a: Row, b: Row): number {
  for (const { column, direction } of ordering) {
    const left = comparable(a[column]);
    const right = comparable(b[column]);
    if (left !== right) return (left < right ? -1 : 1) * (direction === 'asc' ? 1 : -1);
  }
  return 0;
}

/** A deterministic shuffle (mulberry32), so a failure reproduces. */
function shuffled<T>(items: readonly T[], seed: number): T[] {
  let state = seed;
  const random = () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const copy = [...items];
  for (let i = copy.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [copy[i], copy[j]] = [copy[j]!, copy[i]!];
  }
  return copy;
}

/** 57 rows with many ties on the first two keys: 4 sort orders, 5 distinct timestamps. */
function sampleRows(): Row[] {
  const base = new Date('2026-01-01T00:00:00.000Z').getTime();
  return Array.from({ length: 57 }, (_, index) => ({
    id: `itm_${String(index).padStart(3, '0')}`,
    sort_order: (index * 7) % 4,
    created_at: new Date(base + ((index * 3) % 5) * 60_000),
  }));
}

/** Walks every page the way a list service does: fetch limit + 1 after the cursor row, cut, repeat. */
function walkPages(table: Row[], ordering: Ordering, limit: number): Row[][] {
  const eb = expressionBuilder<TestDatabase, 'rows'>();
  const pages: Row[][] = [];
  let cursor: string | null = null;
  do {
    const cursorRow: Row | undefined = cursor === null ? undefined : table.find((row) => row.id === cursor);
    if (cursor !== null && cursorRow === undefined) throw new Error(`cursor ${cursor} names no row`);
    const predicate: OperationNode | undefined =
      cursorRow === undefined ? undefined : keysetAfter(eb, keysOf(ordering, cursorRow)).toOperationNode();
    const fetched: Row[] = table
      .filter((row) => predicate === undefined || evaluate(predicate, row))
      .sort((a, b) => compareRows(ordering, a, b))
      .slice(0, limit + 1);
    const page: Page<Row> = toPage(fetched, limit);
    pages.push(page.data);
    cursor = page.nextCursor;
    if (pages.length > table.length + 1) throw new Error('pagination does not terminate');
  } while (cursor !== null);
  return pages;
}

describe('keysetAfter semantics', () => {
  const orderings: [string, Ordering][] = [
    ['sort_order asc, created_at desc, id desc', THREE_KEYS],
    [
      'sort_order desc, created_at asc, id asc',
      [
        { column: 'sort_order', direction: 'desc' },
        { column: 'created_at', direction: 'asc' },
        { column: 'id', direction: 'asc' },
      ],
    ],
    [
      'created_at asc, id asc',
      [
        { column: 'created_at', direction: 'asc' },
        { column: 'id', direction: 'asc' },
      ],
    ],
    ['id desc', [{ column: 'id', direction: 'desc' }]],
  ];

  describe.each(orderings)('%s', (_name, ordering) => {
    it.each([1, 5, 10, 56, 57, 58, 200])(
      'pages of %s over 57 shuffled rows give the full order, without duplicates or gaps',
      (limit) => {
        const rows = sampleRows();
        const expected = [...rows].sort((a, b) => compareRows(ordering, a, b)).map((row) => row.id);
        const pages = walkPages(shuffled(rows, limit * 31 + 7), ordering, limit);

        expect(pages.flat().map((row) => row.id)).toEqual(expected);
        expect(pages.length).toBe(Math.max(1, Math.ceil(57 / limit)));
        for (const page of pages.slice(0, -1)) expect(page).toHaveLength(limit);
      },
    );
  });

  it('the sample really has ties on the leading keys', () => {
    const rows = sampleRows();
    expect(new Set(rows.map((row) => row.sort_order)).size).toBe(4);
    expect(new Set(rows.map((row) => row.created_at.getTime())).size).toBe(5);
    expect(new Set(rows.map((row) => `${row.sort_order}/${row.created_at.getTime()}`)).size).toBeLessThan(57);
  });

  it('excludes the cursor row itself and everything before it', () => {
    const rows = [...sampleRows()].sort((a, b) => compareRows(THREE_KEYS, a, b));
    const eb = expressionBuilder<TestDatabase, 'rows'>();
    for (const [position, cursor] of rows.entries()) {
      const predicate = keysetAfter(eb, keysOf(THREE_KEYS, cursor)).toOperationNode();
      const after = rows.filter((row) => evaluate(predicate, row)).map((row) => row.id);
      expect(after).toEqual(rows.slice(position + 1).map((row) => row.id));
    }
  });
});
