import type { Database, MerchantUser } from '@commerce/db';
import type { Kysely } from 'kysely';
import type { MerchantUserRead } from './schemas.ts';

/** Sets the user's own display name; later tokens' `name` claims do not overwrite it. */
export async function updateMerchantProfile(
  db: Kysely<Database>,
  user: MerchantUser,
  input: { name: string },
  at: Date,
): Promise<MerchantUserRead> {
  const updated = await db
    .updateTable('merchant_users')
    .set({ name: input.name, updated_at: at })
    .where('id', '=', user.id)
    .returning(['id', 'email', 'name'])
    .executeTakeFirstOrThrow();
  return updated;
}
