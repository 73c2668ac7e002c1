/** OpenAPI text the public order procedures share. */

export const TAGS = ['Public: orders'];

export const READS_SWITCH =
  'Off by default: these reads answer the neutral `404` until the merchant turns on `apiSettings.publicOrderReadsEnabled`. A shopper reads their own order with the token of their confirmation email instead (`POST /public/order-status`).';
