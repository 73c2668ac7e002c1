export * from './get-settings.ts';
export * from './schemas.ts';
export { toSettingsRead } from './settings-row.ts';
export * from './update-settings.ts';
