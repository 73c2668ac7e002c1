import { randomBytes, randomInt } from 'node:crypto';
import { hashToken, secretsEqual } from '@commerce/core';
import type { CustomerChallengePurpose, Database } from '@commerce/db';
import { type CustomerEmailConfig, customerLink, enqueueTemplatedEmail } from '@commerce/notifications';
import type { Kysely } from 'kysely';

/** Sign-in codes and links work once, for 15 minutes; 5 wrong codes void the code. */
export const CHALLENGE_TTL_MINUTES = 15;
export const MAX_FAILED_CODE_ATTEMPTS = 5;

/** A sign-in link's token: `l1_` + 43 base64url characters (32 random bytes), stored as SHA-256 only. */
export const LINK_TOKEN_PATTERN = /^l1_[A-Za-z0-9_-]{43}$/;

export function newLinkToken(): string {
  return `l1_${randomBytes(32).toString('base64url')}`;
}

/** Six uniformly random digits. */
export function newSignInCode(): string {
  return String(randomInt(0, 1_000_000)).padStart(6, '0');
}

/** The stored form of a code: salted by its challenge, so equal codes of two challenges hash apart. */
export function hashSignInCode(challengeId: string, code: string): string {
  return hashToken(`${challengeId}:${code}`);
}

export function codeMatches(challengeId: string, codeHash: string, code: string): boolean {
  return secretsEqual(codeHash, hashSignInCode(challengeId, code));
}

export interface ChallengeScope {
  organizationId: string;
  at: Date;
  email: CustomerEmailConfig;
}

/**
 * Writes a challenge (hashes only) and queues its CUSTOMER_AUTH email in the
 * same transaction. Every email takes this one path, known or not, so the
 * work and the answer do not depend on whether a customer exists.
 */
export async function issueChallenge(
  db: Kysely<Database>,
  scope: ChallengeScope,
  challenge: {
    purpose: CustomerChallengePurpose;
    email: string;
    customerId: string | null;
    withLink: boolean;
  },
): Promise<void> {
  // Internal only (never shown): random, not time-sortable, so it says nothing about when it was made.
  const id = `chg_${randomBytes(16).toString('hex')}`;
  const code = newSignInCode();
  const linkToken = challenge.withLink ? newLinkToken() : null;
  await db
    .insertInto('customer_sign_in_challenges')
    .values({
      organization_id: scope.organizationId,
      id,
      purpose: challenge.purpose,
      email: challenge.email,
      customer_id: challenge.customerId,
      link_token_hash: linkToken === null ? null : hashToken(linkToken),
      code_hash: hashSignInCode(id, code),
      expires_at: new Date(scope.at.getTime() + CHALLENGE_TTL_MINUTES * 60_000),
      created_at: scope.at,
    })
    .execute();
  // A code sign-in carries the code only and no button: the shopper types the code where they asked
  // for it, and `/account/verify` without a token is a dead end (docs/notifications.md).
  const action = linkToken === null ? null : customerLink(scope.email, `/account/verify?token=${linkToken}`);
  await enqueueTemplatedEmail(db, {
    organizationId: scope.organizationId,
    type: 'CUSTOMER_AUTH',
    to: challenge.email,
    values: { 'auth.code': code, 'auth.expiresInMinutes': String(CHALLENGE_TTL_MINUTES) },
    links: { action },
    emailFrom: scope.email.emailFrom,
    metadata: { challengeId: id, purpose: challenge.purpose },
    at: scope.at,
  });
}
