/** OpenAPI text the booking resource procedures share. */

export const TAGS = ['Merchant: booking resources'];
