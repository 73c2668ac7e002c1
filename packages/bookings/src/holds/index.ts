export { createHold, HOLD_CREATE_OPERATION, type HoldContext, releaseHold } from './holds.ts';
export * from './schemas.ts';
