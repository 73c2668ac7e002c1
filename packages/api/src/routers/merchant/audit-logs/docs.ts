/** OpenAPI text the area's procedures share. */

export const FILTERS_DESCRIPTION =
  'Filters compose (AND): `action` is a case-insensitive substring, `targetType`, `targetId` and `actorUserId` match exactly, `since` is inclusive and `until` exclusive.';
