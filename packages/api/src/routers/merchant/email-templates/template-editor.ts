import type { EmailTemplateScope } from '@commerce/admin';
import type { ApiContext } from '../../../context.ts';
import { hostedLinkBase } from '../../../hosted-origin.ts';
import { merchantProcedureFor } from '../../../trpc.ts';

export function scopeOf(ctx: ApiContext & { tenant: { organizationId: string } }): EmailTemplateScope {
  return {
    organizationId: ctx.tenant.organizationId,
    emailFrom: ctx.config.email.from,
    linkBase: hostedLinkBase(ctx),
  };
}

// Membership and email-template writes need Owner or Admin (no permission group grants them). The preview
// stores nothing but is part of editing, so it is reserved the same way; the list is open to any member.
export const editorProcedure = merchantProcedureFor('Owner', 'Admin');
