export * from './archive-box-preset.ts';
export * from './box-preset-read.ts';
export * from './create-box-preset.ts';
export * from './get-box-preset.ts';
export * from './list-box-presets.ts';
export * from './schemas.ts';
export * from './update-box-preset.ts';
