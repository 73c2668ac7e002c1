export * from './dev-transport.ts';
export * from './enqueue-email.ts';
export * from './errors.ts';
export * from './outbox-worker.ts';
export * from './smtp-transport.ts';
export * from './start-outbox-worker.ts';
export * from './types.ts';
