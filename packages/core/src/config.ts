import { z } from 'zod';

/**
 * Process configuration (CONTRACT.md section 10), parsed once at start. A bad
 * value stops the process with a message naming the variable.
 */
const DEV_JWT_SECRET = 'dev-only-merchant-jwt-secret-change-me-0123456789';
const DEV_WEBHOOK_SECRET = 'whsec_dev_only_change_me';

const positiveInt = (fallback: number) => z.coerce.number().int().positive().default(fallback);
const flag = (fallback: boolean) =>
  z
    .enum(['true', 'false', '1', '0'])
    .default(fallback ? 'true' : 'false')
    .transform((value) => value === 'true' || value === '1');
const optionalString = z
  .string()
  .optional()
  .transform((value) => (value === undefined || value.trim() === '' ? undefined : value));
const optionalUrl = optionalString.pipe(z.url().optional());

const configSchema = z
  .object({
    NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
    PORT: z.coerce.number().int().min(0).max(65535).default(3000),
    HOST: z.string().default('0.0.0.0'),
    DATABASE_URL: optionalUrl,
    DATA_DIR: z.string().default('./.data'),
    DATABASE_POOL_SIZE: positiveInt(10),
    HOSTED_CHECKOUT_URL: z.url().default('http://localhost:3000'),
    MERCHANT_JWT_SECRET: optionalString,
    MERCHANT_JWKS_URL: optionalUrl,
    MERCHANT_JWT_ISSUER: z.string().min(1).default('https://id.commerce.test'),
    MERCHANT_JWT_AUDIENCE: z.string().min(1).default('commerce-api'),
    PLATFORM_ADMIN_TOKEN: optionalString.pipe(z.string().min(24).optional()),
    SMTP_URL: optionalUrl,
    EMAIL_FROM: z.string().default('Commerce <no-reply@commerce.test>'),
    PAYMENT_PROVIDER: z.enum(['sandbox', 'stripe']).default('sandbox'),
    PAYMENT_WEBHOOK_SECRET: z.string().min(1).default(DEV_WEBHOOK_SECRET),
    RATE_LIMIT_STORE: z
      .string()
      .default('memory')
      .refine((value) => value === 'memory' || value === 'postgres' || /^rediss?:\/\//.test(value), {
        message: 'must be memory, postgres or a redis:// URL',
      }),
    RATE_LIMIT_PUBLIC_READS_PER_MINUTE: positiveInt(600),
    MAX_BODY_BYTES: positiveInt(1_048_576),
    TRUST_PROXY: flag(false),
    LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    SEED_DEMO: optionalString.pipe(z.enum(['true', 'false', '1', '0']).optional()),
    RUN_WORKER: optionalString.pipe(z.enum(['true', 'false', '1', '0']).optional()),
    WORKER_POLL_MS: positiveInt(1000),
    SHUTDOWN_TIMEOUT_MS: positiveInt(10_000),
  })
  .superRefine((env, ctx) => {
    if (
      env.NODE_ENV === 'production' &&
      (env.MERCHANT_JWT_SECRET ?? DEV_JWT_SECRET) === DEV_JWT_SECRET &&
      !env.MERCHANT_JWKS_URL
    ) {
      ctx.addIssue({
        code: 'custom',
        path: ['MERCHANT_JWT_SECRET'],
        message:
          'production needs MERCHANT_JWKS_URL or a MERCHANT_JWT_SECRET other than the development value',
      });
    }
    if (env.NODE_ENV === 'production' && env.MERCHANT_JWT_SECRET === DEV_JWT_SECRET) {
      ctx.addIssue({
        code: 'custom',
        path: ['MERCHANT_JWT_SECRET'],
        message: 'the development secret is refused in production',
      });
    }
    if (env.RATE_LIMIT_STORE === 'postgres' && !env.DATABASE_URL) {
      ctx.addIssue({
        code: 'custom',
        path: ['RATE_LIMIT_STORE'],
        message: 'postgres needs DATABASE_URL (the embedded database is in-process)',
      });
    }
  });

export type RawConfig = z.infer<typeof configSchema>;

export interface Config {
  env: RawConfig['NODE_ENV'];
  port: number;
  host: string;
  database: { url: string | undefined; dataDir: string; poolSize: number };
  hostedCheckoutUrl: string;
  merchantJwt: { secret: string | undefined; jwksUrl: string | undefined; issuer: string; audience: string };
  platformAdminToken: string | undefined;
  email: { smtpUrl: string | undefined; from: string };
  payments: { provider: 'sandbox' | 'stripe'; webhookSecret: string };
  rateLimit: { store: string; publicReadsPerMinute: number };
  maxBodyBytes: number;
  trustProxy: boolean;
  logLevel: RawConfig['LOG_LEVEL'];
  /** Seed the demo organization at start (default: on for the embedded database). */
  seedDemo: boolean;
  /** Run the outbox worker inside the gateway process (default: on for the embedded database). */
  runWorkerInProcess: boolean;
  workerPollMs: number;
  shutdownTimeoutMs: number;
}

export class ConfigError extends Error {
  override name = 'ConfigError';
}

const truthy = (value: string | undefined, fallback: boolean) =>
  value === undefined ? fallback : value === 'true' || value === '1';

export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const parsed = configSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map(
      (issue) => `  ${issue.path.join('.') || '(env)'}: ${issue.message}`,
    );
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const raw = parsed.data;
  const embedded = raw.DATABASE_URL === undefined;
  return {
    env: raw.NODE_ENV,
    port: raw.PORT,
    host: raw.HOST,
    database: { url: raw.DATABASE_URL, dataDir: raw.DATA_DIR, poolSize: raw.DATABASE_POOL_SIZE },
    hostedCheckoutUrl: raw.HOSTED_CHECKOUT_URL.replace(/\/$/, ''),
    merchantJwt: {
      secret: raw.MERCHANT_JWKS_URL ? raw.MERCHANT_JWT_SECRET : (raw.MERCHANT_JWT_SECRET ?? DEV_JWT_SECRET),
      jwksUrl: raw.MERCHANT_JWKS_URL,
      issuer: raw.MERCHANT_JWT_ISSUER,
      audience: raw.MERCHANT_JWT_AUDIENCE,
    },
    platformAdminToken: raw.PLATFORM_ADMIN_TOKEN,
    email: { smtpUrl: raw.SMTP_URL, from: raw.EMAIL_FROM },
    payments: { provider: raw.PAYMENT_PROVIDER, webhookSecret: raw.PAYMENT_WEBHOOK_SECRET },
    rateLimit: { store: raw.RATE_LIMIT_STORE, publicReadsPerMinute: raw.RATE_LIMIT_PUBLIC_READS_PER_MINUTE },
    maxBodyBytes: raw.MAX_BODY_BYTES,
    trustProxy: raw.TRUST_PROXY,
    logLevel: raw.LOG_LEVEL,
    seedDemo: truthy(raw.SEED_DEMO, embedded),
    runWorkerInProcess: truthy(raw.RUN_WORKER, embedded),
    workerPollMs: raw.WORKER_POLL_MS,
    shutdownTimeoutMs: raw.SHUTDOWN_TIMEOUT_MS,
  };
}

/** The development signing secret, for `pnpm dev:token` and tests. Refused in production. */
export const DEVELOPMENT_JWT_SECRET = DEV_JWT_SECRET;
