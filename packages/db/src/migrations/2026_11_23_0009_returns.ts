import { type Kysely, sql } from 'kysely';

/**
 * Returns. A return asks to send back some quantity of an order's PRODUCT
 * lines; its lines name sales record lines, so the quantity already claimed
 * by live returns (every state but REJECTED and CANCELLED) is summed from
 * them under the order's row lock. Action tokens are the hashed `a1_`
 * credentials a signed-in customer can hand on: one purpose, the lines
 * eligible when issued, and the recorded result of the one action they
 * performed, which a repeat of the same request replays.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('returns')
    .addColumn('organization_id', 'text', (col) => col.notNull().references('organizations.id'))
    .addColumn('id', 'text', (col) => col.notNull())
    .addColumn('order_id', 'text', (col) => col.notNull())
    .addColumn('status', 'text', (col) =>
      col
        .notNull()
        .check(sql`status in ('REQUESTED', 'APPROVED', 'RECEIVED', 'COMPLETED', 'REJECTED', 'CANCELLED')`),
    )
    // Who asked: the signed-in customer (or the holder of their action token) and the order's email.
    .addColumn('customer_id', 'text')
    .addColumn('customer_email', sql`citext`, (col) => col.notNull())
    .addColumn('channel', 'text', (col) => col.notNull().check(sql`channel in ('ACCOUNT', 'ACTION_TOKEN')`))
    .addColumn('currency', 'text', (col) => col.notNull())
    // Σ quantity × unit price of the lines: what completing the return refunds.
    .addColumn('refund_total_in_cents', 'bigint', (col) =>
      col.notNull().check(sql`refund_total_in_cents >= 0`),
    )
    .addColumn('rejection_reason', 'text')
    .addColumn('approved_at', 'timestamptz')
    .addColumn('received_at', 'timestamptz')
    .addColumn('completed_at', 'timestamptz')
    .addColumn('rejected_at', 'timestamptz')
    .addColumn('cancelled_at', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('returns_pkey', ['organization_id', 'id'])
    .addForeignKeyConstraint('returns_order_fkey', ['organization_id', 'order_id'], 'orders', [
      'organization_id',
      'id',
    ])
    .addCheckConstraint(
      'returns_rejection_reason',
      sql`(status = 'REJECTED') = (rejection_reason is not null)`,
    )
    .execute();
  // The merchant list (newest first), its status filter, and an order's returns.
  await sql`create index returns_list_idx on returns (organization_id, created_at desc, id desc)`.execute(db);
  await sql`create index returns_status_idx on returns (organization_id, status, created_at desc, id desc)`.execute(
    db,
  );
  await sql`create index returns_order_idx on returns (organization_id, order_id, created_at desc, id desc)`.execute(
    db,
  );

  await db.schema
    .createTable('return_lines')
    .addColumn('organization_id', 'text', (col) => col.notNull())
    .addColumn('return_id', 'text', (col) => col.notNull())
    .addColumn('sales_record_line_id', 'text', (col) => col.notNull())
    .addColumn('position', 'integer', (col) => col.notNull().check(sql`position >= 0`))
    .addColumn('quantity', 'integer', (col) => col.notNull().check(sql`quantity > 0`))
    .addColumn('reason', 'text', (col) =>
      col
        .notNull()
        .check(
          sql`reason in ('DAMAGED', 'DEFECTIVE', 'WRONG_ITEM', 'NOT_AS_DESCRIBED', 'SIZE_OR_FIT', 'NO_LONGER_NEEDED', 'OTHER')`,
        ),
    )
    .addColumn('note', 'text')
    .addPrimaryKeyConstraint('return_lines_pkey', ['organization_id', 'return_id', 'sales_record_line_id'])
    .addForeignKeyConstraint('return_lines_return_fkey', ['organization_id', 'return_id'], 'returns', [
      'organization_id',
      'id',
    ])
    .addForeignKeyConstraint(
      'return_lines_sales_line_fkey',
      ['organization_id', 'sales_record_line_id'],
      'sales_record_lines',
      ['organization_id', 'id'],
    )
    .execute();

  await db.schema
    .createTable('action_tokens')
    .addColumn('organization_id', 'text', (col) => col.notNull().references('organizations.id'))
    .addColumn('token_hash', 'text', (col) => col.notNull())
    .addColumn('purpose', 'text', (col) => col.notNull().check(sql`purpose in ('RETURN_REQUEST')`))
    // The customer it was issued to (no foreign key: customer accounts live in their own package).
    .addColumn('customer_id', 'text', (col) => col.notNull())
    .addColumn('customer_email', sql`citext`, (col) => col.notNull())
    .addColumn('order_id', 'text', (col) => col.notNull())
    // The lines eligible when issued: [{ lineId, name, quantity, unitPriceInCents }].
    .addColumn('eligible_lines', 'jsonb', (col) => col.notNull())
    .addColumn('expires_at', 'timestamptz', (col) => col.notNull())
    .addColumn('revoked_at', 'timestamptz')
    .addColumn('consumed_at', 'timestamptz')
    // The action performed, the SHA-256 of its canonical request and the answer a repeat replays.
    .addColumn('action', 'text')
    .addColumn('request_hash', 'text')
    .addColumn('result', 'jsonb')
    .addColumn('return_id', 'text')
    .addColumn('created_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('action_tokens_pkey', ['organization_id', 'token_hash'])
    .addForeignKeyConstraint('action_tokens_order_fkey', ['organization_id', 'order_id'], 'orders', [
      'organization_id',
      'id',
    ])
    .addForeignKeyConstraint('action_tokens_return_fkey', ['organization_id', 'return_id'], 'returns', [
      'organization_id',
      'id',
    ])
    .addCheckConstraint(
      'action_tokens_consumed',
      sql`(consumed_at is null) = (action is null) and (consumed_at is null) = (request_hash is null) and (consumed_at is null) = (result is null)`,
    )
    .execute();
  // Issuing a token revokes the live ones of the same order, purpose and customer.
  await sql`create index action_tokens_order_idx on action_tokens (organization_id, order_id, purpose, customer_id)`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('action_tokens').ifExists().execute();
  await db.schema.dropTable('return_lines').ifExists().execute();
  await db.schema.dropTable('returns').ifExists().execute();
}
