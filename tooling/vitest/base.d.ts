/** A package's test settings; `isolated` files run each in its own module graph. */
export function testConfig(isolated?: string[]): import('vitest/config').UserConfig;
