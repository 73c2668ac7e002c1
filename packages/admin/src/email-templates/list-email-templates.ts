import type { Page } from '@commerce/core';
import type { Database } from '@commerce/db';
import { listEmailTemplateDefinitions, loadTemplateOrganization } from '@commerce/notifications';
import type { Kysely } from 'kysely';
import { type EmailTemplateScope, toEmailTemplateRead } from './email-template-read.ts';
import type { EmailTemplateRead } from './schemas.ts';

/**
 * Every template type with its defaults, the organization's override, the
 * merge variables, the resolved sample and the sender and compliance parts.
 * Two queries whatever the number of types: the organization with its
 * business profile, and all of its overrides. The set is fixed, so the list
 * is one page (`nextCursor` is always null).
 */
export async function listEmailTemplates(
  db: Kysely<Database>,
  scope: EmailTemplateScope,
): Promise<Page<EmailTemplateRead>> {
  const [organization, overrides] = await Promise.all([
    loadTemplateOrganization(db, scope.organizationId),
    db
      .selectFrom('email_template_overrides')
      .selectAll()
      .where('organization_id', '=', scope.organizationId)
      .execute(),
  ]);
  const byType = new Map(overrides.map((row) => [row.type, row]));
  return {
    data: listEmailTemplateDefinitions().map((definition) =>
      toEmailTemplateRead(definition, byType.get(definition.type), organization, scope),
    ),
    nextCursor: null,
  };
}
