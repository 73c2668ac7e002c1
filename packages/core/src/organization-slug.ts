/**
 * An organization slug: lowercase letters, digits and inner hyphens, 2 to 63 characters, like a
 * DNS label. The one definition: the platform's organization schema and the configuration's list
 * of slugs both read it.
 */
export const ORGANIZATION_SLUG_PATTERN = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])$/;
