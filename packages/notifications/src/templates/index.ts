export * from './registry.ts';
export * from './render.ts';
export * from './sender.ts';
export * from './slots.ts';
