import { randomInt } from 'node:crypto';
import type { Database } from '@commerce/db';
import type { Kysely } from 'kysely';

/** Crockford base32: digits and capitals without I, L, O and U. */
const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const CODE_LENGTH = 8;
const ATTEMPTS = 5;

/** `BK-` and 8 random Crockford base32 characters: for support, not a credential. */
export function newBookingCode(): string {
  let body = '';
  for (let index = 0; index < CODE_LENGTH; index += 1) body += CROCKFORD[randomInt(CROCKFORD.length)];
  return `BK-${body}`;
}

/**
 * A code no booking of the tenant has yet. With 32^8 codes a collision is
 * vanishingly rare; the unique constraint `bookings_code_key` stays the
 * guard against two transactions drawing the same one at once.
 */
export async function unusedBookingCode(db: Kysely<Database>, organizationId: string): Promise<string> {
  for (let attempt = 0; ; attempt += 1) {
    const code = newBookingCode();
    const taken = await db
      .selectFrom('bookings')
      .select('id')
      .where('organization_id', '=', organizationId)
      .where('code', '=', code)
      .executeTakeFirst();
    if (!taken || attempt === ATTEMPTS) return code;
  }
}
