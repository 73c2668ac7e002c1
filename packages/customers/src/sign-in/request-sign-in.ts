import { type Database, inTransaction } from '@commerce/db';
import type { Kysely } from 'kysely';
import { type ChallengeScope, issueChallenge } from './challenges.ts';
import type { RequestSignInInput } from './schemas.ts';

/**
 * `request-link` (a link and a fallback code) or `request-otp` (a code):
 * writes a challenge and queues the CUSTOMER_AUTH email in one transaction.
 * No branch looks at whether the email belongs to a customer: the first
 * verification creates the customer, so every address gets the same email,
 * the same work and the same answer.
 */
export async function requestSignIn(
  db: Kysely<Database>,
  scope: ChallengeScope,
  input: RequestSignInInput,
  kind: 'LINK' | 'CODE',
): Promise<{ accepted: true }> {
  await inTransaction(db, (trx) =>
    issueChallenge(trx, scope, {
      purpose: 'SIGN_IN',
      email: input.email,
      customerId: null,
      withLink: kind === 'LINK',
    }),
  );
  return { accepted: true };
}
