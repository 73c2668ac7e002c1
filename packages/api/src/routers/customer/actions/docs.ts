/** OpenAPI text the action token procedures share. */

export const TAGS = ['Customer: actions'];

export const TOKEN =
  'The `a1_` token is the credential (no sign-in), scoped to its store: send `x-organization-slug`. An unknown, malformed, expired, revoked or another store’s token is the same neutral `404 RESOURCE_NOT_FOUND`.';
