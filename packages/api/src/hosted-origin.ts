import { type CustomerEmailConfig, customerEmailConfigOf, tenantLinkBase } from '@commerce/notifications';
import type { ApiContext } from './context.ts';

/** The serialized origin of an http(s) URL, or undefined (a browser's `Origin: null`, garbage). */
export function httpOrigin(value: string): string | undefined {
  if (!URL.canParse(value)) return undefined;
  const url = new URL(value);
  return url.protocol === 'https:' || url.protocol === 'http:' ? url.origin : undefined;
}

/**
 * The hosted app's origin for a tenant: HOSTED_CHECKOUT_URL's, with `{orgSlug}` replaced by the
 * tenant's slug (a deployment serves every store's pages from one URL template). Without a tenant, only a URL without `{orgSlug}` names one.
 * CORS and the customer procedures' origin check both ask this, so they allow the same origin.
 */
export function hostedAppOrigin(hostedCheckoutUrl: string, slug: string | undefined): string | undefined {
  if (hostedCheckoutUrl.includes('{orgSlug}'))
    return slug === undefined ? undefined : httpOrigin(hostedCheckoutUrl.replaceAll('{orgSlug}', slug));
  return httpOrigin(hostedCheckoutUrl);
}

/**
 * The base of the links a request's emails and answers carry: HOSTED_CHECKOUT_URL with `{orgSlug}`
 * replaced by the request's tenant. Before a tenant is resolved the base
 * keeps the placeholder, which the email sender replaces when it renders.
 */
export function hostedLinkBase(ctx: Pick<ApiContext, 'config' | 'observed'>): string {
  const slug = ctx.observed.tenant?.slug;
  return slug === undefined
    ? ctx.config.hostedCheckoutUrl
    : tenantLinkBase(ctx.config.hostedCheckoutUrl, slug);
}

/**
 * What a request's customer emails need from configuration: the sender, the base of their links for
 * the request's tenant, and the cap on booking emails to one recipient (BOOKING_EMAILS_PER_RECIPIENT_PER_HOUR).
 */
export function customerEmailConfig(ctx: Pick<ApiContext, 'config' | 'observed'>): CustomerEmailConfig {
  return { ...customerEmailConfigOf(ctx.config), linkBase: hostedLinkBase(ctx) };
}
