/** OpenAPI text the audit log procedures share. */

export const FILTERS_DESCRIPTION = 'Filters compose (AND).';
