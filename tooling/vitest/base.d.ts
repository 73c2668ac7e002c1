export const baseConfig: import('vitest/config').UserConfig;
