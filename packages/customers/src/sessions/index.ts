export * from './cookies.ts';
export * from './session-token.ts';
export * from './sessions.ts';
