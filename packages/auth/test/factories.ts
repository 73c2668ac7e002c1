import type { AuditLog, Database, Membership, MerchantUser, Organization } from '@commerce/db';
import type { Kysely } from 'kysely';
import type { MerchantClaims } from '../src/merchant-jwt.ts';

let sequence = 0;

/** A number unique within the test process, so rows of one file's tests never collide. */
export function nextSequence(): number {
  sequence += 1;
  return sequence;
}

export async function insertOrganization(
  db: Kysely<Database>,
  overrides: { name?: string } = {},
): Promise<Organization> {
  const n = nextSequence();
  return db
    .insertInto('organizations')
    .values({ id: `org_test_${n}`, slug: `shop-${n}`, name: overrides.name ?? `Shop ${n}` })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** Verified claims of a fresh identity-provider user, as the token verifier returns them. */
export function merchantClaims(overrides: Partial<MerchantClaims> = {}): MerchantClaims {
  const n = nextSequence();
  return {
    subject: `idp|user-${n}`,
    email: `merchant${n}@example.com`,
    name: null,
    emailVerified: true,
    ...overrides,
  };
}

export async function readMembership(db: Kysely<Database>, id: string): Promise<Membership> {
  return db.selectFrom('memberships').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
}

export async function readUsersBySubject(db: Kysely<Database>, subject: string): Promise<MerchantUser[]> {
  return db.selectFrom('merchant_users').selectAll().where('subject', '=', subject).execute();
}

export async function readAuditRows(db: Kysely<Database>, targetId: string): Promise<AuditLog[]> {
  return db.selectFrom('audit_logs').selectAll().where('target_id', '=', targetId).execute();
}
