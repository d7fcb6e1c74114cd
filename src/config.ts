import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import proxyaddr from 'proxy-addr';
import { z } from 'zod';

const port = z.coerce.number().int().min(0).max(65535);
const positiveInt = z.coerce.number().int().positive();
const url = z.url();

/** OWASP's Argon2id floor (19 MiB, two passes): the hashes of every running service. */
export const PRODUCTION_HASH_MEMORY_KIB = 19_456;

/** Every setting, as the environment gives it; docs/settings.md is generated from it. */
export const settingsSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: port.default(4000),
  HOST: z.string().min(1).default('0.0.0.0'),
  /** A second port that answers only `GET /metrics`, to whoever the network lets reach it (a Kubernetes NetworkPolicy); unset: none. */
  METRICS_PORT: port.optional(),
  DATA_DIR: z.string().min(1).default('./data'),
  /** The role the service runs as, made by the operator; unset: the service makes its own from DATABASE_URL's owner. */
  DATABASE_APP_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// URL')
    .optional(),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// URL')
    .optional(),
  /**
   * Region vn's database (docs/residency.md): a server in Viet Nam, where the personal data of VN
   * accounts is kept. Required in production when DATABASE_URL is set; unset otherwise: a database
   * beside DATABASE_URL's, named after it with `_vn`.
   */
  DATABASE_URL_VN: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// URL')
    .optional(),
  EMBEDDED_PG_PORT: port.default(54329),
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\//, 'must be an smtp:// or smtps:// URL')
    .optional(),
  MAIL_FROM: z.string().min(3).default('Learning Platform <no-reply@learning.local>'),
  MAIL_RETRIES: z.coerce.number().int().min(0).default(10),
  MAIL_RETRY_DELAY_MS: positiveInt.default(30_000),
  /** A claimed outbox row is offered again after this if its relay died mid-delivery (renewed while it is delivered). */
  OUTBOX_LEASE_MS: positiveInt.default(30_000),
  /** The relay's fallback sweep, for rows whose commit no relay heard of. */
  OUTBOX_SWEEP_MS: positiveInt.default(10_000),
  /** The whole shutdown's bound: past it the process exits non-zero whatever is still closing. */
  SHUTDOWN_GRACE_MS: positiveInt.default(25_000),
  HEAP_MODE: z.enum(['lean', 'v8-default']).default('lean'),
  JWT_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
  JWT_ISSUER: z.string().min(1).default('learning-platform-api'),
  JWT_AUDIENCE: z.string().min(1).default('learning-platform'),
  /** Argon2id's memory per password hash; only tests go below the production floor (checkPasswordHashing). */
  PASSWORD_HASH_MEMORY_KIB: positiveInt.default(PRODUCTION_HASH_MEMORY_KIB),
  ACCESS_TOKEN_TTL: positiveInt.default(900),
  REFRESH_TOKEN_TTL: positiveInt.default(30 * 24 * 3600),
  PUBLIC_URL: url.optional(),
  WEB_ORIGIN: url.default('http://localhost:3000'),
  APP_ORIGIN: url.default('http://localhost:8081'),
  AI_BACKEND_URL: url.optional(),
  AI_BACKEND_SECRET: z.string().min(16, 'must be at least 16 characters').optional(),
  AI_BACKEND_AUTH: z.enum(['hmac', 'token']).default('hmac'),
  AI_BACKEND_TIMEOUT_MS: positiveInt.default(30_000),
  AI_MESSAGE_MAX_LENGTH: positiveInt.default(4000),
  AI_BREAKER_FAILURES: positiveInt.default(5),
  AI_BREAKER_RESET_MS: positiveInt.default(10_000),
  AI_BACKEND_CONNECTIONS: positiveInt.default(256),
  AI_DECISION_TTL_MS: z.coerce.number().int().min(0).default(300_000),
  SUBSCRIPTION_DECISION_TTL_MS: z.coerce.number().int().min(0).default(300_000),
  AI_USAGE_FLUSH_MS: positiveInt.default(200),
  AI_QUOTA_FREE: z.coerce.number().int().min(0).default(20),
  AI_QUOTA_STARTER: z.coerce.number().int().min(0).default(200),
  AI_QUOTA_PRO: z.coerce.number().int().min(0).default(1000),
  BODY_LIMIT: z
    .string()
    .regex(/^\d+(b|kb|mb)$/i, 'must be a size such as 100kb')
    .default('100kb'),
  /** Rate limit counters in Redis (shared by every instance); without it they live in the database. */
  REDIS_URL: z
    .string()
    .regex(/^rediss?:\/\//, 'must be a redis:// or rediss:// URL')
    .optional(),
  RATE_LIMIT_DEFAULT: positiveInt.default(300),
  RATE_LIMIT_AUTH: positiveInt.default(30),
  RATE_LIMIT_LOGIN_FAILURES: positiveInt.default(10),
  RATE_LIMIT_LOGIN_FAILURES_IP: positiveInt.default(50),
  RATE_LIMIT_AI: positiveInt.default(20),
  /** Contact form messages per hour, per IP. */
  RATE_LIMIT_CONTACT: positiveInt.default(5),
  /** Where contact form messages are forwarded. */
  CONTACT_TO: z.email().default('support@learning.local'),
  /** Mails one address may receive per hour because of someone else's request (a guardian's link request, a purchase request); the rest are not sent. */
  RATE_LIMIT_REQUEST_MAILS: positiveInt.default(5),
  /** Messages a creator may send to their learners per hour. */
  RATE_LIMIT_CREATOR_MESSAGES: positiveInt.default(10),
  GRAPHQL_MAX_DEPTH: positiveInt.default(10),
  GRAPHQL_MAX_ALIASES: positiveInt.default(15),
  GRAPHQL_MAX_COST: positiveInt.default(5000),
  GRAPHQL_MAX_TOKENS: positiveInt.default(2000),
  MONGODB_URL: z
    .string()
    .regex(/^mongodb(\+srv)?:\/\//, 'must be a mongodb:// URL')
    .optional(),
  JOBS_PROCESS_EVERY_MS: positiveInt.default(1000),
  JOBS_LOCK_LIFETIME_MS: positiveInt.default(30_000),
  JOBS_DRAIN_TIMEOUT_MS: positiveInt.default(10_000),
  QUIZ_MAX_ATTEMPTS: positiveInt.default(3),
  FACTORY_CONCURRENCY: positiveInt.default(4),
  FACTORY_STAGE_ATTEMPTS: positiveInt.default(3),
  FACTORY_MAX_ACTIVE_PER_REQUESTER: positiveInt.default(20),
  FACTORY_RETRY_DELAY_MS: positiveInt.default(2000),
  FACTORY_PROVIDERS: z
    .string()
    .regex(
      /^\s*((research|outline|content|quiz)=(offline|open_weight|commercial)\s*(,\s*|$))*$/,
      'must be a list such as research=open_weight,outline=commercial',
    )
    .default(''),
  FACTORY_OFFLINE_DELAY_MS: z.coerce.number().int().min(0).default(0),
  OPEN_WEIGHT_LLM_URL: url.optional(),
  OPEN_WEIGHT_LLM_MODEL: z.string().min(1).default('qwen2.5:7b-instruct'),
  OPEN_WEIGHT_LLM_API_KEY: z.string().min(1).optional(),
  COMMERCIAL_LLM_URL: url.optional(),
  COMMERCIAL_LLM_MODEL: z.string().min(1).default('gpt-4o-mini'),
  COMMERCIAL_LLM_API_KEY: z.string().min(1).optional(),
  LLM_TIMEOUT_MS: positiveInt.default(60_000),
  LLM_MALFORMED_RETRIES: z.coerce.number().int().min(0).max(5).default(2),
  MODERATION_URL: url.optional(),
  MODERATION_MODEL: z.string().min(1).default('omni-moderation-latest'),
  MODERATION_API_KEY: z.string().min(1).optional(),
  GDPR_EXPORT_TTL_HOURS: positiveInt.default(168),
  GDPR_DELETION_GRACE_DAYS: z.coerce.number().int().min(0).default(7),
  GDPR_LEGAL_DEADLINE_DAYS: positiveInt.default(30),
  GDPR_DEADLINE_WARNING_DAYS: positiveInt.default(7),
  GDPR_AI_RETRIES: z.coerce.number().int().min(0).default(5),
  GDPR_AI_RETRY_DELAY_MS: positiveInt.default(1000),
  GDPR_SWEEP_EVERY: z.string().min(1).default('1 minute'),
  API_PUBLIC_URL: url.optional(),
  REPORTS_CONCURRENCY: positiveInt.default(8),
  PAYMENTS_SANDBOX: z.enum(['auto', 'on', 'off']).default('auto'),
  SANDBOX_WEBHOOK_SECRET: z.string().min(16, 'must be at least 16 characters').optional(),
  PAYMENT_EXPIRY_MINUTES: positiveInt.default(30),
  REFUND_WINDOW_DAYS: z.coerce.number().int().min(0).default(14),
  MARKETPLACE_FEE_PERCENT: z.coerce.number().int().min(0).max(100).default(30),
  COMMERCE_SWEEP_EVERY: z.string().min(1).default('1 minute'),
  STRIPE_SECRET_KEY: z.string().min(1).optional(),
  STRIPE_WEBHOOK_SECRET: z.string().min(1).optional(),
  STRIPE_API_URL: url.default('https://api.stripe.com'),
  VNPAY_TMN_CODE: z.string().min(1).optional(),
  VNPAY_HASH_SECRET: z.string().min(1).optional(),
  VNPAY_PAYMENT_URL: url.default('https://sandbox.vnpayment.vn/paymentv2/vpcpay.html'),
  VNPAY_API_URL: url.default('https://sandbox.vnpayment.vn/merchant_webapi/api/transaction'),
  MOMO_PARTNER_CODE: z.string().min(1).optional(),
  MOMO_ACCESS_KEY: z.string().min(1).optional(),
  MOMO_SECRET_KEY: z.string().min(1).optional(),
  MOMO_API_URL: url.default('https://test-payment.momo.vn'),
  /** CodeLab: runs at once per language (default: cores), limits of a run, runs per user a minute. */
  CODELAB_WORKERS: positiveInt.optional(),
  /** Python processes kept loaded beyond CODELAB_WORKERS, for a class that presses Run together (default: as many as workers). */
  CODELAB_PYTHON_SPARES: z.coerce.number().int().min(0).optional(),
  CODELAB_TIME_LIMIT_MS: positiveInt.default(2000),
  CODELAB_MEMORY_LIMIT_MB: positiveInt.default(64),
  CODELAB_RUNS_PER_MINUTE: positiveInt.default(30),
  CODELAB_JUDGE_CONCURRENCY: positiveInt.default(2),
  /** A judged submission's verdict is shown this long per test of the exercise after it was submitted; unset: the time limit and 0.5 s. */
  CODELAB_VERDICT_DELAY_PER_TEST_MS: positiveInt.optional(),
  /** Warm the interpreters at start-up (the service); tests of other areas start without them. */
  CODELAB_PREWARM: z
    .enum(['true', 'false'])
    .default('true')
    .transform((v) => v === 'true'),
  /** How many proxies stand in front (`1`), or their addresses: never every one (see trustedProxies). */
  TRUST_PROXY: z.string().default('0').transform(trustedProxies),
  /** OTLP/HTTP collector (its base URL): set, tracing is on (read by server/tracing.ts before the config, validated here). */
  OTEL_EXPORTER_OTLP_ENDPOINT: url.optional(),
  OTEL_SERVICE_NAME: z.string().min(1).default('learning-platform-api'),
  /** auto: readable lines on a terminal, JSON lines otherwise. */
  LOG_FORMAT: z.enum(['auto', 'pretty', 'json']).default('auto'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
});

/**
 * TRUST_PROXY as proxy-addr reads it: a number of hops (`0`, or `false`: no proxy), or the proxies'
 * addresses and ranges (`10.0.0.5,10.0.1.0/24`, or proxy-addr's names such as `loopback`). Trusting
 * every hop (`true`, `*`, `0.0.0.0/0`) would make the client the leftmost X-Forwarded-For entry,
 * which the client writes itself: its address, its rate limits and `/metrics` would be its choice.
 */
function trustedProxies(value: string, ctx: z.core.$RefinementCtx<string>): number | string[] {
  const given = value.trim().toLowerCase();
  if (given === 'false' || given === '') return 0;
  if (/^\d+$/.test(given)) return Number(given);
  const addresses = given.split(',').map((address) => address.trim());
  if (['true', 'yes', 'on', 'all', '*'].includes(given) || addresses.some((address) => /\/0+$/.test(address))) {
    ctx.addIssue({
      code: 'custom',
      message: `must not trust every proxy: ${value} trusts every X-Forwarded-For entry a client writes; set the number of proxies in front (TRUST_PROXY=1) or their addresses (TRUST_PROXY=10.0.0.5,10.0.0.6)`,
    });
    return z.NEVER;
  }
  try {
    proxyaddr.compile(addresses);
  } catch {
    ctx.addIssue({
      code: 'custom',
      message: 'must be a number of proxies (1) or their addresses, comma-separated (10.0.0.5,10.0.1.0/24)',
    });
    return z.NEVER;
  }
  return addresses;
}

export type Env = z.infer<typeof settingsSchema>;
export type SettingsInput = z.input<typeof settingsSchema>;

/** What each setting is when the environment says nothing. */
export const settingDefaults = (): Record<string, unknown> => settingsSchema.parse({});

/** The AI backend trusts who we say the caller is only with a secret beside its address. */
function checkAiBackend(values: Env): void {
  if (values.AI_BACKEND_URL && !values.AI_BACKEND_SECRET) {
    throw new ConfigError('Invalid configuration: AI_BACKEND_SECRET must be set when AI_BACKEND_URL is');
  }
}
/** Cheaper hashes make stolen ones cheaper to crack: only the test suite, which signs up thousands, may have them. */
function checkPasswordHashing(values: Env): void {
  if (values.PASSWORD_HASH_MEMORY_KIB < PRODUCTION_HASH_MEMORY_KIB && values.NODE_ENV !== 'test') {
    throw new ConfigError(
      `Invalid configuration: PASSWORD_HASH_MEMORY_KIB must be at least ${PRODUCTION_HASH_MEMORY_KIB} outside NODE_ENV=test`,
    );
  }
}
/** A payment provider is configured whole or not at all: half its keys would take money it cannot confirm. */
function checkPaymentProviders(values: Env): void {
  const groups: [string, (keyof Env)[]][] = [
    ['Stripe', ['STRIPE_SECRET_KEY', 'STRIPE_WEBHOOK_SECRET']],
    ['VNPay', ['VNPAY_TMN_CODE', 'VNPAY_HASH_SECRET']],
    ['MoMo', ['MOMO_PARTNER_CODE', 'MOMO_ACCESS_KEY', 'MOMO_SECRET_KEY']],
  ];
  for (const [, keys] of groups) {
    const set = keys.filter((key) => values[key] !== undefined);
    if (set.length && set.length < keys.length) {
      const missing = keys.find((key) => values[key] === undefined)!;
      throw new ConfigError(`Invalid configuration: ${missing} must be set when ${set[0]} is`);
    }
  }
}

/** A stage given to a model provider needs that provider's address. */
function checkFactoryProviders(values: Env): void {
  for (const [stage, provider] of Object.entries(factoryProviders(values))) {
    if (provider === 'open_weight' && !values.OPEN_WEIGHT_LLM_URL)
      throw new ConfigError(
        `Invalid configuration: OPEN_WEIGHT_LLM_URL must be set when FACTORY_PROVIDERS gives it the ${stage} stage`,
      );
    if (provider === 'commercial' && !values.COMMERCIAL_LLM_URL)
      throw new ConfigError(
        `Invalid configuration: COMMERCIAL_LLM_URL must be set when FACTORY_PROVIDERS gives it the ${stage} stage`,
      );
  }
}

export type ModelStage = 'research' | 'outline' | 'content' | 'quiz';
export type ProviderKind = 'offline' | 'open_weight' | 'commercial';

/** FACTORY_PROVIDERS as a map; stages it does not name use the built-in offline generator. */
export function factoryProviders(values: Pick<Env, 'FACTORY_PROVIDERS'>): Record<ModelStage, ProviderKind> {
  const chosen: Record<ModelStage, ProviderKind> = {
    research: 'offline',
    outline: 'offline',
    content: 'offline',
    quiz: 'offline',
  };
  for (const pair of values.FACTORY_PROVIDERS.split(',')
    .map((p) => p.trim())
    .filter(Boolean)) {
    const [stage, provider] = pair.split('=') as [ModelStage, ProviderKind];
    chosen[stage] = provider;
  }
  return chosen;
}

export type Config = Omit<Env, 'JWT_SECRET' | 'PUBLIC_URL' | 'API_PUBLIC_URL'> & {
  JWT_SECRET: string;
  /** Where the mails' links lead: PUBLIC_URL, else WEB_ORIGIN when set, else the service's own pages (`API_PUBLIC_URL/pages`). */
  PUBLIC_URL: string;
  /** Where this service is reached from outside (payment pages, provider return and IPN URLs). */
  API_PUBLIC_URL: string;
  jwtSecretGenerated: boolean;
};

/** Thrown for a bad setting; main prints its one-line message and exits. */
export class ConfigError extends Error {}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  // An empty variable is an unset one: compose and Kubernetes write `NAME=` for a value they leave out.
  const parsed = settingsSchema.safeParse(Object.fromEntries(Object.entries(env).filter(([, value]) => value !== '')));
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new ConfigError(`Invalid configuration: ${String(issue.path[0])} ${issue.message}`);
  }
  const values = parsed.data;
  checkAiBackend(values);
  checkFactoryProviders(values);
  checkPaymentProviders(values);
  checkPasswordHashing(values);
  const dataDir = resolve(values.DATA_DIR);
  const secret = values.JWT_SECRET ?? readOrCreateSecret(dataDir);
  const apiPublicUrl = (values.API_PUBLIC_URL ?? `http://localhost:${values.PORT}`).replace(/\/$/, '');
  return {
    ...values,
    DATA_DIR: dataDir,
    JWT_SECRET: secret,
    jwtSecretGenerated: !values.JWT_SECRET,
    // No web app configured (neither PUBLIC_URL nor WEB_ORIGIN set): the mails link to the
    // service's own small pages (web/mail-links), not to a web app nothing serves.
    PUBLIC_URL: values.PUBLIC_URL ?? (env.WEB_ORIGIN ? values.WEB_ORIGIN : `${apiPublicUrl}/pages`),
    API_PUBLIC_URL: apiPublicUrl,
  };
}

/** Keeps a generated secret under the data directory so tokens survive restarts. */
function readOrCreateSecret(dataDir: string): string {
  const file = join(dataDir, 'jwt-secret');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(dataDir, { recursive: true });
  const secret = randomBytes(48).toString('base64url');
  writeFileSync(file, secret, { mode: 0o600 });
  return secret;
}
