/** OpenAPI text the shipping zone and rate procedures share. */

export const TAGS = ['Merchant: shipping'];

export const ZONE_READ_NOTE = 'The zone carries every one of its rates, archived ones included.';
