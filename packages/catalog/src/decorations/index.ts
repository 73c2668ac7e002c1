export * from './decorate-items.ts';
