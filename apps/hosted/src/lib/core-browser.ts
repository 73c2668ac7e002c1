/** The browser's view of @commerce/core (see vite.config.ts): its pure modules only. */

export * from '../../../../packages/core/src/boolean-query.ts';
export * from '../../../../packages/core/src/currency.ts';
export * from '../../../../packages/core/src/pagination.ts';
