/** OpenAPI text the area's procedures share. */

export const TAGS = ['Merchant: shipping'];

export const PRESET_BODY =
  'Body: `name` (1 to 200, trimmed; unique, case-insensitive, among the non-archived presets: else `409 BOX_PRESET_NAME_TAKEN`), `innerLengthMm`, `innerWidthMm`, `innerHeightMm` (integers 1 to 3000), `outerLengthMm`, `outerWidthMm`, `outerHeightMm` (optional, used for rating: at least the inner value; absent or null means the inner value, and follows it when it changes), `tareWeightGrams` (0 to 50000), `maxLoadGrams` (1 to 150000, or null for no limit of its own), `sortOrder` (default 0). Unknown keys are `400`.';

export const LIMIT_NOTE =
  'At most 200 presets of the organization may be non-archived: one more is `409 BOX_PRESET_LIMIT_REACHED` (archive one first).';
