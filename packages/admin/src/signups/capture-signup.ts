import { newId } from '@commerce/core';
import type { Database } from '@commerce/db';
import type { Kysely } from 'kysely';
import { type CaptureSignupInput, SIGNUP_ACKNOWLEDGEMENT, type SignupAcknowledgement } from './schemas.ts';

/**
 * Records a self-serve signup request for the platform operator. One row per
 * email (the unique index on `email`, citext): a repeat updates the details
 * it sends (fields it leaves out keep their stored value), the storefront it
 * came from and `updated_at`, in the same single statement as a first
 * request, so concurrent repeats leave one row. Every accepted request gets
 * the same acknowledgement, whether the email was known or not.
 */
export async function captureSignup(
  db: Kysely<Database>,
  context: { sourceOrganizationId: string; at: Date },
  input: CaptureSignupInput,
): Promise<SignupAcknowledgement> {
  const { at } = context;
  await db
    .insertInto('signup_requests')
    .values({
      id: newId('sgn', at),
      email: input.email.toLowerCase(),
      name: input.name ?? null,
      company_name: input.companyName ?? null,
      website: input.website ?? null,
      message: input.message ?? null,
      source_organization_id: context.sourceOrganizationId,
      created_at: at,
      updated_at: at,
    })
    .onConflict((conflict) =>
      conflict.column('email').doUpdateSet((eb) => ({
        name: eb.fn.coalesce('excluded.name', 'signup_requests.name'),
        company_name: eb.fn.coalesce('excluded.company_name', 'signup_requests.company_name'),
        website: eb.fn.coalesce('excluded.website', 'signup_requests.website'),
        message: eb.fn.coalesce('excluded.message', 'signup_requests.message'),
        source_organization_id: eb.ref('excluded.source_organization_id'),
        updated_at: eb.ref('excluded.updated_at'),
      })),
    )
    .execute();
  return { ...SIGNUP_ACKNOWLEDGEMENT };
}
