/**
 * The browser-safe part of @commerce/catalog (`@commerce/catalog/schemas`): zod schemas and pure
 * helpers only, nothing that reaches the database (the modules below import its types only).
 */
export { COUNTRY_CODES, isCountryCode } from './shipping/countries.ts';
export { countriesSchema, countryCodeSchema } from './shipping/schemas.ts';
