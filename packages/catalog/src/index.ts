export * from './collections/index.ts';
export * from './decorations/index.ts';
export * from './items/index.ts';
export { escapeLikePattern } from './items/search.ts';
export * from './pages/index.ts';
export * from './reviews/index.ts';
export * from './shipping/index.ts';
export * from './stock-notifications/index.ts';
export * from './variants/index.ts';
