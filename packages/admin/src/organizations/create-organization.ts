import { addMembership } from '@commerce/auth';
import { AppError, newId } from '@commerce/core';
import { type Database, isUniqueViolation, recordAudit } from '@commerce/db';
import type { Kysely } from 'kysely';
import type { CreateOrganizationInput, OrganizationRead } from './schemas.ts';

/**
 * Provisions a tenant with its first Owner (docs/platform.md "Platform provisioning"). The Owner
 * membership stays pending until a token with that email signs in.
 */
export async function createOrganization(
  db: Kysely<Database>,
  input: CreateOrganizationInput,
  at: Date,
): Promise<OrganizationRead> {
  try {
    return await db.transaction().execute(async (trx) => {
      const organization = await trx
        .insertInto('organizations')
        .values({ id: newId('org', at), slug: input.slug, name: input.name, created_at: at })
        .returning(['id', 'slug', 'name'])
        .executeTakeFirstOrThrow();
      const owner = await addMembership(trx, {
        organizationId: organization.id,
        email: input.owner.email,
        invitedName: input.owner.name ?? null,
        role: 'Owner',
        permissions: [],
        at,
      });
      await recordAudit(trx, {
        organizationId: organization.id,
        actor: { userId: null, email: null },
        action: 'organization.created',
        targetType: 'organization',
        targetId: organization.id,
        metadata: { slug: organization.slug, ownerMembershipId: owner.id },
        at,
      });
      return organization;
    });
  } catch (error) {
    if (isUniqueViolation(error, 'organizations_slug_key')) {
      throw new AppError('SLUG_TAKEN', 'An organization with this slug already exists');
    }
    throw error;
  }
}
