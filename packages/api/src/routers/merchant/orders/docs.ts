/** OpenAPI text the merchant order procedures share. */

export const TAGS = ['Merchant: orders'];

export const ORDER_READ = '`fulfillmentStatus` is derived from the fulfillment records.';
