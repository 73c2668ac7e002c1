/** OpenAPI text the CMS page procedures share. */

export const TAGS = ['Merchant: pages'];

export const SLUG_RULE = 'A slug is unique in the organization, archived pages included (`409 SLUG_TAKEN`).';

export const CONTENT_RULE =
  '`content` is sanitised before it is stored, and answered as stored: common text, list, table, link and image markup is kept; scripts, styles, frames, forms, event handlers and `javascript:` or `data:` URLs are removed.';
