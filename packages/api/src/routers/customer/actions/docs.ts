/** OpenAPI text the area's procedures share. */

export const TAGS = ['Customer: actions'];

export const TOKEN =
  'The `a1_` token is the credential (no sign-in), and is scoped to its store: the `x-organization-slug` header is required. An unknown, malformed, expired, revoked or another store’s token is the same neutral `404 RESOURCE_NOT_FOUND`.';
