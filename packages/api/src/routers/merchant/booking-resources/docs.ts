/** OpenAPI text the area's procedures share. */

export const TAGS = ['Merchant: booking resources'];

export const RESOURCE_BODY =
  'Body: `name` (1 to 200, trimmed), `kind` (`STAFF`, `SPACE`, `EQUIPMENT`, `VEHICLE` or `OTHER`), `capacity` (units in use at one instant, shared by every service using the resource: 1 to 10,000; default 1), `userId` (`STAFF` only: the user id of an active member, for assignment; null for none; otherwise `400`), `metafields` (a JSON object of at most 100 keys and 16,384 bytes; keys starting with `__` are `400`). Unknown keys are `400`.';
