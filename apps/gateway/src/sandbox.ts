import type { Config } from '@commerce/core';
import type { HeaderRecord } from './response-headers.ts';

/** The setting under which a production process runs sandbox providers (a staging store). */
export const SANDBOX_SETTING = 'ALLOW_SANDBOX_IN_PRODUCTION';

/** The header that marks every answer of a production process running sandbox providers. */
export const SANDBOX_HEADER = 'x-sandbox';

/** The OpenAPI document's sentence about the mark. */
export const SANDBOX_NOTE = [
  `A production server runs sandbox providers (payments that take no money, an invented carrier, tax or distance)`,
  `only with \`${SANDBOX_SETTING}=true\`, for a staging store; every answer of such a server carries`,
  `\`${SANDBOX_HEADER}\` naming them (for example \`${SANDBOX_HEADER}: payment, carrier\`). Development and test servers`,
  'run the sandbox by default and do not mark their answers.',
].join(' ');

/** The headers every answer carries for the configuration: `x-sandbox` when it applies. */
export function sandboxHeaders(config: Pick<Config, 'sandboxInProduction'>): HeaderRecord {
  return config.sandboxInProduction.length === 0
    ? {}
    : { [SANDBOX_HEADER]: config.sandboxInProduction.join(', ') };
}

/** The start-up warning of a production process running sandbox providers, or undefined. */
export function sandboxStartupWarning(
  config: Pick<Config, 'sandboxInProduction'>,
): { fields: { setting: string; sandboxProviders: string[] }; message: string } | undefined {
  if (config.sandboxInProduction.length === 0) return undefined;
  return {
    fields: { setting: SANDBOX_SETTING, sandboxProviders: config.sandboxInProduction },
    message: `${SANDBOX_SETTING}=true: production is running sandbox providers (${config.sandboxInProduction.join(', ')}); no real money is taken, every answer is marked ${SANDBOX_HEADER}`,
  };
}
