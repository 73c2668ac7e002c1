import type { ApiContext } from './context.ts';
import { customerEmailConfig } from './hosted-origin.ts';

/** A call of a merchant procedure: its tenant and the signed-in merchant user. */
type MerchantCall = Pick<ApiContext, 'clock' | 'config' | 'observed'> & {
  tenant: { organizationId: string };
  merchantUser: { id: string; email: string };
};

/** The merchant user who acts, as the audit log records them. */
export function merchantActor(ctx: Pick<MerchantCall, 'merchantUser'>): { userId: string; email: string } {
  return { userId: ctx.merchantUser.id, email: ctx.merchantUser.email };
}

/** What a merchant write needs: the tenant, the acting user and the request's instant. */
export function writeContext(ctx: MerchantCall): {
  organizationId: string;
  actor: { userId: string; email: string };
  at: Date;
} {
  return { organizationId: ctx.tenant.organizationId, actor: merchantActor(ctx), at: ctx.clock.now() };
}

/** A merchant write that may email the customer: `writeContext` with the customer email configuration. */
export function emailingWriteContext(ctx: MerchantCall) {
  return { ...writeContext(ctx), email: customerEmailConfig(ctx) };
}

/**
 * A use case that may email the customer, called by a shopper or a customer: the tenant, the
 * request's instant, and the sender with the base of the links for the tenant.
 */
export function customerEmailContext(
  ctx: Pick<ApiContext, 'clock' | 'config' | 'observed'>,
  organizationId: string,
) {
  return { organizationId, at: ctx.clock.now(), email: customerEmailConfig(ctx) };
}
