import { parseArgs } from 'node:util';
import { loadConfig } from '@commerce/core';
import { mintDevToken } from './dev-token.ts';

/** `pnpm dev:token --email EMAIL [--sub SUB] [--name NAME] [--hours N]`: prints a development merchant JWT. */
const { values } = parseArgs({
  options: {
    email: { type: 'string' },
    sub: { type: 'string' },
    name: { type: 'string' },
    hours: { type: 'string', default: '12' },
  },
});

const config = loadConfig();
if (!values.email) {
  process.stderr.write('usage: pnpm dev:token --email EMAIL [--sub SUB] [--name NAME] [--hours N]\n');
  process.exit(2);
}
if (config.env === 'production' || !config.merchantJwt.secret) {
  process.stderr.write('dev:token signs with MERCHANT_JWT_SECRET and is for development only\n');
  process.exit(2);
}

const token = await mintDevToken({
  secret: config.merchantJwt.secret,
  issuer: config.merchantJwt.issuer,
  audience: config.merchantJwt.audience,
  subject: values.sub ?? `dev|${values.email.toLowerCase()}`,
  email: values.email,
  name: values.name,
  expiresInSeconds: Number(values.hours) * 3600,
});
process.stdout.write(`${token}\n`);
