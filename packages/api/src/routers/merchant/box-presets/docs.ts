/** OpenAPI text the box preset procedures share. */

export const TAGS = ['Merchant: shipping'];

export const NAME_AND_LIMIT =
  'A name is unique among the non-archived presets, any case (`409 BOX_PRESET_NAME_TAKEN`); at most 200 presets may be non-archived (`409 BOX_PRESET_LIMIT_REACHED`).';
