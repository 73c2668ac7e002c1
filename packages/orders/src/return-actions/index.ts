export * from './action-tokens.ts';
export * from './issue-return-action.ts';
export * from './perform-action.ts';
export * from './preview-action.ts';
export * from './prune-action-tokens.ts';
export * from './schemas.ts';
