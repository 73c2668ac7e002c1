/** OpenAPI text the area's procedures share. */

export const TAGS = ['Merchant: email templates'];
