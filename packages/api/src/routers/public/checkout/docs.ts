/** OpenAPI text the checkout procedures share. */

export const TAGS = ['Public: checkout'];

export const TOKEN_NOTE = 'A malformed, unknown, expired or other store’s `{token}` is one neutral `404`.';
