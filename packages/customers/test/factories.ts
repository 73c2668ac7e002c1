import type { Database } from '@commerce/db';
import type { Kysely } from 'kysely';
import { upsertVerifiedCustomer } from '../src/accounts/upsert-verified-customer.ts';
import { createSession, type IssuedSession } from '../src/sessions/sessions.ts';

/** For tests: the customer of `email` in the organization, signed in without an email round trip. */
export async function signInForTest(
  db: Kysely<Database>,
  organizationId: string,
  email: string,
  at: Date,
): Promise<IssuedSession> {
  const customer = await upsertVerifiedCustomer(db, { organizationId, at }, email);
  return createSession(db, { organizationId, at }, customer.id);
}
