/** The browser's view of @commerce/catalog (see vite.config.ts): the pure shipping schemas only. */
export { countryCodeSchema } from '../../../../packages/catalog/src/shipping/schemas.ts';
