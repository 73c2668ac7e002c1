import type { EmailTemplateScope } from '@commerce/admin';
import type { ApiContext } from '../../../context.ts';
import { customerEmailConfig } from '../../../hosted-origin.ts';
import { merchantProcedureFor } from '../../../trpc.ts';

/** The organization's templates, with the sender and the links' base its sample emails render with. */
export function scopeOf(ctx: ApiContext & { tenant: { organizationId: string } }): EmailTemplateScope {
  const { emailFrom, linkBase } = customerEmailConfig(ctx);
  return { organizationId: ctx.tenant.organizationId, emailFrom, linkBase };
}

// Membership and email-template writes need Owner or Admin (no permission group grants them). The preview
// stores nothing but is part of editing, so it is reserved the same way; the list is open to any member.
export const editorProcedure = merchantProcedureFor('Owner', 'Admin');
