export * from './archive-page.ts';
export * from './create-page.ts';
export * from './get-page.ts';
export * from './list-pages.ts';
export * from './public-pages.ts';
export * from './sanitize-page-content.ts';
export * from './schemas.ts';
export * from './update-page.ts';
