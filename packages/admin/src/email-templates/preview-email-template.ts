import type { Database, EmailTemplateOverride } from '@commerce/db';
import type { EmailTemplateDefinition, EmailTemplateSlots } from '@commerce/notifications';
import {
  defaultSlots,
  loadTemplateOrganization,
  overrideSlots,
  resolveSlots,
  type TemplateOrganization,
} from '@commerce/notifications';
import type { Kysely } from 'kysely';
import {
  assertRequiredVariables,
  type EmailTemplateScope,
  parseSlotsPatch,
  renderResolvedTemplate,
  requireEmailTemplateDefinition,
} from './email-template-read.ts';
import type { EmailTemplatePreview } from './schemas.ts';

export interface ResolvedDraft {
  definition: EmailTemplateDefinition;
  organization: TemplateOrganization;
  slots: EmailTemplateSlots;
}

/**
 * The copy in effect for `type` with an optional unsaved draft over the saved
 * override, validated as an update would be (draft issues are reported under
 * `draft.<slot>`). Reads only.
 */
export async function resolveDraft(
  db: Kysely<Database>,
  scope: EmailTemplateScope,
  type: string,
  draft: unknown,
): Promise<ResolvedDraft> {
  const definition = requireEmailTemplateDefinition(type);
  const parsedDraft = parseSlotsPatch(definition, draft, 'draft.');
  const [organization, saved] = await Promise.all([
    loadTemplateOrganization(db, scope.organizationId),
    loadOverride(db, scope.organizationId, definition.type),
  ]);
  const slots = resolveSlots(defaultSlots(definition, organization), overrideSlots(saved), parsedDraft);
  assertRequiredVariables(definition, slots, 'draft.');
  return { definition, organization, slots };
}

function loadOverride(
  db: Kysely<Database>,
  organizationId: string,
  type: string,
): Promise<EmailTemplateOverride | undefined> {
  return db
    .selectFrom('email_template_overrides')
    .selectAll()
    .where('organization_id', '=', organizationId)
    .where('type', '=', type)
    .executeTakeFirst();
}

/**
 * Renders the saved override plus an optional unsaved draft with sample
 * values. Persists nothing and records no audit entry.
 */
export async function previewEmailTemplate(
  db: Kysely<Database>,
  scope: EmailTemplateScope,
  type: string,
  input: { draft?: unknown } = {},
): Promise<EmailTemplatePreview> {
  const { definition, organization, slots } = await resolveDraft(db, scope, type, input.draft);
  const { sample, sender, compliance } = renderResolvedTemplate(definition, slots, organization, scope);
  return { type: definition.type, sample, sender, compliance };
}
