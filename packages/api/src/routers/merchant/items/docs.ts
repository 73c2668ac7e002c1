/** OpenAPI text the item and variant procedures share. */

export const ITEMS = ['Merchant: items'];

export const VARIANTS = ['Merchant: variants'];
