import type { SettingsInput } from './config';

export interface SettingDoc {
  group: string;
  meaning: string;
  /** What applies when the variable is unset, where the schema has no default to show. */
  unset?: string;
}

/**
 * What each setting means, for docs/settings.md (`npm run docs:settings` writes it, a test checks it).
 * Keyed by the settings schema, so a setting without its line here does not compile.
 */
export const SETTING_DOCS: Record<keyof SettingsInput, SettingDoc> = {
  PORT: { group: 'Server', meaning: 'HTTP port' },
  HOST: { group: 'Server', meaning: 'address to listen on' },
  METRICS_PORT: {
    group: 'Server',
    meaning:
      'a second port that answers only `GET /metrics`, without a token, to whoever the network lets reach it (in Kubernetes a NetworkPolicy admits only the monitoring namespace); the API port still answers `/metrics` to loopback and admins only',
    unset: 'no second port',
  },
  NODE_ENV: {
    group: 'Server',
    meaning:
      'set it to `production` in the environment of a deployed service: libraries read it as they load (graphql-js otherwise checks each failed `instanceof` for a copy of itself, a cost on every field). `production` also hides the schema from clients: no introspection (but for admins, whose explorer at `/graphql` needs it) and no "Did you mean" hints in GraphQL errors (queries and variables, HTTP, REST and WebSocket alike)',
  },
  DATA_DIR: {
    group: 'Server',
    meaning: 'embedded database and its generated password, mail outbox, generated JWT secret',
  },
  SHUTDOWN_GRACE_MS: {
    group: 'Server',
    meaning: 'SIGTERM/SIGINT: past this the process exits with status 1, whatever is still closing',
  },
  HEAP_MODE: {
    group: 'Server',
    meaning:
      "`lean`: every full garbage collection gives the memory it emptied back to the system, and the heap grows to twice what is live before the next (resident memory stays level under load, about 140 MiB lower); `v8-default`: V8's own choices, which keep emptied memory for reuse while the instance is busy",
  },
  BODY_LIMIT: {
    group: 'Server',
    meaning:
      'largest JSON body; larger ones get 413 `payload_too_large`. Mutations an area declares in `bodyLimits` accept more, REST and GraphQL alike, so that their own limit answers: projects (`createProject`, `updateProject`) 1.56 MiB, `runCode` 784 KiB, `submitSolution` and `runProject` 400 KiB (six bytes of JSON for any byte of text, plus the other fields)',
  },
  TRUST_PROXY: {
    group: 'Server',
    meaning:
      'behind proxies, how many stand in front (`1` behind one nginx) or their addresses and ranges (`10.0.0.5,10.0.1.0/24`): the client is then the address the last trusted proxy saw, for rate limits and logs, and no `X-Forwarded-For` entry a client writes itself counts. `true` (trust every hop) is refused: it lets a client choose its own address. `/metrics` is answered without a token only straight from loopback, never through a proxy',
  },
  LOG_FORMAT: {
    group: 'Server',
    meaning:
      '`auto`: readable lines (pino-pretty) when stdout is a terminal, JSON lines otherwise; `pretty` or `json` to force one',
  },
  LOG_LEVEL: {
    group: 'Server',
    meaning:
      'pino level (`silent` to `trace`); logs are JSON with the request id. No level logs SQL parameters or failing rows (a database error keeps its SQLSTATE, table, column and constraint), and personal fields and credentials (`email`, `password`, `birthDate`, `displayName`, tokens, `authorization`...) are `[redacted]` wherever they appear',
  },
  OTEL_EXPORTER_OTLP_ENDPOINT: {
    group: 'Server',
    meaning:
      "base URL of an OpenTelemetry collector's OTLP/HTTP receiver (`http://collector:4318`; spans go to `/v1/traces` as JSON): traces of HTTP requests and WebSocket operations, GraphQL (parse, validation, execution, resolvers that do more than read a property) and SQL statements with placeholders for their values, joining a caller's W3C `traceparent`. No personal data, secret or error message is sent; idle polling, `/metrics` and `/health*` are not traced (docs/operations.md, Tracing). `OTEL_EXPORTER_OTLP_HEADERS` and the SDK's other `OTEL_EXPORTER_OTLP_*` variables apply",
    unset: 'no tracing, the SDK is not loaded',
  },
  OTEL_SERVICE_NAME: {
    group: 'Server',
    meaning: '`service.name` of the spans (each instance adds `service.instance.id`, host and pid)',
  },
  PUBLIC_URL: {
    group: 'Server',
    meaning:
      "base of the links in mails (`/verify-email?token=`, `/reset-password?token=`, `/guardian/confirm?token=`, each with `lang=` of the mail); with no web app configured the service's own pages answer them (docs/operations.md)",
    unset: '`WEB_ORIGIN` when set, else `API_PUBLIC_URL/pages`',
  },
  API_PUBLIC_URL: {
    group: 'Server',
    meaning:
      "where this service is reached from outside: links to the API in mails (export downloads), the sandbox payment page, and the providers' return and IPN URLs",
    unset: '`http://localhost:<PORT>`',
  },
  WEB_ORIGIN: {
    group: 'Server',
    meaning: "web app origin allowed by CORS; setting it (or `PUBLIC_URL`) says a web app answers the mails' links",
  },
  APP_ORIGIN: { group: 'Server', meaning: 'mobile/app origin allowed by CORS' },
  DATABASE_URL: {
    group: 'Database',
    meaning:
      "`postgres://user:pass@host:5432/db` of a real server: the owner of the tables, who runs the migrations and makes the role the service runs as (`learning_platform_app`, rows only: it cannot alter or truncate a table nor disable the triggers that keep the ledger and the audit trail append-only; its password is derived from the owner's)",
    unset: 'embedded PostgreSQL',
  },
  DATABASE_URL_VN: {
    group: 'Database',
    meaning:
      "region vn's database (docs/residency.md): a server in Viet Nam, owned like `DATABASE_URL`'s, with `wal_level = logical` on global's server so that the shared data reaches it; the personal data of accounts whose home region is `vn` is kept there and nowhere else. Production refuses to start with `DATABASE_URL` set and this unset",
    unset:
      "a database beside global's on its server, named after it with `_vn` (`learning_platform_vn` in the embedded one), made when missing",
  },
  DATABASE_APP_URL: {
    group: 'Database',
    meaning:
      'the role the service runs as, when the owner may not create roles: grant it `select, insert, update, delete` on the tables, `usage` on the sequences and `execute` on the functions of `public`; it must not be the owner',
    unset: 'the service makes its role from `DATABASE_URL`',
  },
  EMBEDDED_PG_PORT: {
    group: 'Database',
    meaning:
      'port of the embedded PostgreSQL: TCP on 127.0.0.1 only, no Unix socket, SCRAM with a password generated once and kept in `DATA_DIR/postgres-password` (0600; a cluster made with the old `postgres` password gets the generated one at its next start)',
  },
  REDIS_URL: {
    group: 'Database',
    meaning:
      '`redis://host:port`: keep the rate-limit counters in Redis (else in the database; shared by every instance either way)',
  },
  MONGODB_URL: {
    group: 'Database',
    meaning:
      "Agenda's jobs in MongoDB (the deployment as designed); unset, they live in the `agenda_jobs` table of our PostgreSQL",
  },
  JWT_SECRET: {
    group: 'Sign-in',
    meaning: 'HS256 secret for access tokens, 32+ characters; set it in production, the same on every instance',
    unset: 'generated, kept in `DATA_DIR/jwt-secret` (with a warning)',
  },
  JWT_ISSUER: { group: 'Sign-in', meaning: '`iss` of access tokens' },
  JWT_AUDIENCE: { group: 'Sign-in', meaning: '`aud` of access tokens' },
  PASSWORD_HASH_MEMORY_KIB: {
    group: 'Sign-in',
    meaning:
      'memory of each Argon2id password hash, KiB (two passes); less than the default is refused unless `NODE_ENV=test`',
  },
  ACCESS_TOKEN_TTL: { group: 'Sign-in', meaning: 'access token lifetime, seconds' },
  REFRESH_TOKEN_TTL: { group: 'Sign-in', meaning: 'refresh token lifetime, seconds (30 days)' },
  SMTP_URL: {
    group: 'Mail and the outbox',
    meaning: '`smtp://user:pass@host:587` or `smtps://...`',
    unset: 'file outbox in `DATA_DIR/outbox`',
  },
  MAIL_FROM: { group: 'Mail and the outbox', meaning: 'sender of every mail' },
  MAIL_RETRY_DELAY_MS: {
    group: 'Mail and the outbox',
    meaning:
      'first wait before a refused or failed mail is tried again (then twice as long each time, at most an hour)',
  },
  MAIL_RETRIES: { group: 'Mail and the outbox', meaning: 'retries of a mail before it is given up (logged)' },
  OUTBOX_LEASE_MS: {
    group: 'Mail and the outbox',
    meaning:
      'how long a claimed outbox row (a mail, a job, a reaction to an event) waits before another relay may deliver it, should its relay die mid-delivery; renewed every third of it while it is delivered',
  },
  OUTBOX_SWEEP_MS: {
    group: 'Mail and the outbox',
    meaning: "the relay's fallback sweep for due rows (it is woken at once by the commit's NOTIFY otherwise)",
  },
  CONTACT_TO: { group: 'Mail and the outbox', meaning: 'where contact form messages are forwarded' },
  RATE_LIMIT_DEFAULT: { group: 'Rate limits', meaning: 'requests per minute per user (per IP when anonymous)' },
  RATE_LIMIT_AUTH: { group: 'Rate limits', meaning: 'requests per minute per IP to `/auth/*` and the auth mutations' },
  RATE_LIMIT_LOGIN_FAILURES: {
    group: 'Rate limits',
    meaning:
      'failed log-ins per e-mail address per 15 minutes (each attempt counts before its password is checked, and a successful one gets its point back)',
  },
  RATE_LIMIT_LOGIN_FAILURES_IP: { group: 'Rate limits', meaning: 'failed log-ins per IP per 15 minutes' },
  RATE_LIMIT_AI: { group: 'Rate limits', meaning: 'requests per minute per user to `/ai/*`' },
  RATE_LIMIT_CONTACT: { group: 'Rate limits', meaning: 'contact form messages per hour per IP' },
  RATE_LIMIT_CREATOR_MESSAGES: {
    group: 'Rate limits',
    meaning: 'messages a creator may send to their learners per hour',
  },
  RATE_LIMIT_REQUEST_MAILS: {
    group: 'Rate limits',
    meaning:
      "mails one address receives per hour because of someone else's request (guardian link requests, purchase requests), counted in the shared rate-limit store; the request still succeeds and shows in the app, the extra mails are not sent",
  },
  GRAPHQL_MAX_DEPTH: { group: 'GraphQL', meaning: 'deepest selection allowed (HTTP and WebSocket)' },
  GRAPHQL_MAX_ALIASES: { group: 'GraphQL', meaning: 'aliases per operation' },
  GRAPHQL_MAX_COST: {
    group: 'GraphQL',
    meaning:
      "cost limit per operation, checked before it runs: each field costs 1 and what is under a list counts once per element it may hold (`first`, a variable without a default as 100, the ids of `nodes`, a field's `complexity` such as 30 lessons a course or 5 linked learners)",
  },
  GRAPHQL_MAX_TOKENS: { group: 'GraphQL', meaning: 'tokens per document' },
  SUBSCRIPTION_DECISION_TTL_MS: {
    group: 'GraphQL',
    meaning:
      "how long a WebSocket keeps its account's session state and each subscription the verdict of its rules between events, at most; a suspension, a role or status change (database NOTIFY), a logout or any other end of sessions drops them at once on every instance; `0` reads them again for every event",
  },
  AI_BACKEND_URL: {
    group: 'AI tutor',
    meaning: 'the external AI backend (docs/ai-backend.md); unset: AI endpoints answer 503 saying so',
  },
  AI_BACKEND_SECRET: {
    group: 'AI tutor',
    meaning: "required with `AI_BACKEND_URL`: signs the caller's identity (or is the service token)",
  },
  AI_BACKEND_AUTH: {
    group: 'AI tutor',
    meaning: '`hmac` (signature header) or `token` (`Authorization: Bearer <secret>`)',
  },
  AI_BACKEND_TIMEOUT_MS: { group: 'AI tutor', meaning: 'a backend slower than this is `upstream_unavailable`' },
  AI_MESSAGE_MAX_LENGTH: { group: 'AI tutor', meaning: 'longest chat message, in characters' },
  AI_BREAKER_FAILURES: {
    group: 'AI tutor',
    meaning: 'failed backend requests (in ten seconds, half or more failing) that open the circuit',
  },
  AI_BREAKER_RESET_MS: { group: 'AI tutor', meaning: 'how long the open circuit fails fast before trying again' },
  AI_QUOTA_FREE: {
    group: 'AI tutor',
    meaning: "AI messages a day on the free tier (a guardian's `dailyMessageLimit` lowers it)",
  },
  AI_QUOTA_STARTER: { group: 'AI tutor', meaning: 'AI messages a day on the starter tier' },
  AI_QUOTA_PRO: { group: 'AI tutor', meaning: 'AI messages a day on the pro tier' },
  AI_DECISION_TTL_MS: {
    group: 'AI tutor',
    meaning:
      "how long the AI proxy keeps a person's decision (rules, memory flag, daily limit) at most; every change to their account, consents, guardian's settings or country policy drops it at once on every instance (database NOTIFY); `0` decides on every request",
  },
  AI_USAGE_FLUSH_MS: {
    group: 'AI tutor',
    meaning: 'token usage is written in one statement per this period for all answers since (and on shutdown)',
  },
  AI_BACKEND_CONNECTIONS: {
    group: 'AI tutor',
    meaning: 'keep-alive connections to the AI backend at most (undici pool)',
  },
  JOBS_PROCESS_EVERY_MS: {
    group: 'Jobs',
    meaning: 'how often an instance looks for due jobs (new ones also arrive by NOTIFY on PostgreSQL)',
  },
  JOBS_LOCK_LIFETIME_MS: {
    group: 'Jobs',
    meaning:
      'the lease of claimed work (a job, an export, an erasure, a batch of guardian reports): taken over this long after its instance died; renewed every third of it while it runs',
  },
  JOBS_DRAIN_TIMEOUT_MS: {
    group: 'Jobs',
    meaning: 'at shutdown, how long running jobs may finish before they are handed back',
  },
  REPORTS_CONCURRENCY: { group: 'Jobs', meaning: 'guardian report mails sent at a time by one run' },
  QUIZ_MAX_ATTEMPTS: {
    group: 'Learning',
    meaning:
      "attempts a learner has at each lesson's quiz; more get 409 `limit_reached`. The best counts. Results say right or wrong and why per question, never the right option, so more attempts would find the answers by elimination",
  },
  FACTORY_CONCURRENCY: { group: 'Course factory', meaning: 'generation stages an instance runs at a time' },
  FACTORY_MAX_ACTIVE_PER_REQUESTER: {
    group: 'Course factory',
    meaning:
      'generations one person may have queued or running at once; more get 409 `limit_reached` (model time is not free)',
  },
  FACTORY_STAGE_ATTEMPTS: {
    group: 'Course factory',
    meaning: 'tries of a failing stage before the generation is `failed` (its error kept)',
  },
  FACTORY_RETRY_DELAY_MS: {
    group: 'Course factory',
    meaning: 'first retry delay, doubling each time (at most five minutes)',
  },
  FACTORY_PROVIDERS: {
    group: 'Course factory',
    meaning:
      "which model writes which stage, e.g. `research=open_weight,outline=commercial,content=commercial,quiz=open_weight` (the specification's table); stages not named use the built-in offline generator. Safety is always the built-in classifier, plus the moderation endpoint when set",
  },
  OPEN_WEIGHT_LLM_URL: {
    group: 'Course factory',
    meaning:
      'an OpenAI-compatible chat-completions base URL serving an open-weight model (vLLM `http://host:8000/v1`, Ollama `http://host:11434/v1`, llama.cpp server)',
  },
  OPEN_WEIGHT_LLM_MODEL: { group: 'Course factory', meaning: 'the model asked at `OPEN_WEIGHT_LLM_URL`' },
  OPEN_WEIGHT_LLM_API_KEY: {
    group: 'Course factory',
    meaning: 'bearer key for `OPEN_WEIGHT_LLM_URL`, if it wants one',
  },
  COMMERCIAL_LLM_URL: {
    group: 'Course factory',
    meaning: 'an OpenAI-compatible chat-completions base URL serving a commercial small model',
  },
  COMMERCIAL_LLM_MODEL: { group: 'Course factory', meaning: 'the model asked at `COMMERCIAL_LLM_URL`' },
  COMMERCIAL_LLM_API_KEY: { group: 'Course factory', meaning: 'bearer key for `COMMERCIAL_LLM_URL`' },
  LLM_TIMEOUT_MS: { group: 'Course factory', meaning: 'per model request' },
  LLM_MALFORMED_RETRIES: {
    group: 'Course factory',
    meaning: 'times a malformed (non-JSON or off-schema) answer is sent back for correction within one attempt',
  },
  MODERATION_URL: {
    group: 'Course factory',
    meaning: "an OpenAI-compatible `/moderations` endpoint whose findings join the built-in classifier's",
  },
  MODERATION_MODEL: { group: 'Course factory', meaning: 'the model asked at `MODERATION_URL`' },
  MODERATION_API_KEY: { group: 'Course factory', meaning: 'bearer key for `MODERATION_URL`' },
  FACTORY_OFFLINE_DELAY_MS: {
    group: 'Course factory',
    meaning: 'latency the built-in generator adds per call, to stand in for a model in demos and benchmarks',
  },
  GDPR_EXPORT_TTL_HOURS: {
    group: 'Privacy',
    meaning: "how long an export's signed download link (and its file) lasts",
  },
  GDPR_DELETION_GRACE_DAYS: {
    group: 'Privacy',
    meaning: 'time between asking for erasure and the erasure; cancel within it',
  },
  GDPR_LEGAL_DEADLINE_DAYS: { group: 'Privacy', meaning: 'the legal deadline to answer a privacy request' },
  GDPR_DEADLINE_WARNING_DAYS: { group: 'Privacy', meaning: 'how near the legal deadline admins see a request flagged' },
  GDPR_AI_RETRIES: {
    group: 'Privacy',
    meaning: 'tries of `DELETE /users/:id` at the AI backend within one erasure run; the next sweep asks again',
  },
  GDPR_AI_RETRY_DELAY_MS: { group: 'Privacy', meaning: 'first delay between those tries, doubling' },
  GDPR_SWEEP_EVERY: {
    group: 'Privacy',
    meaning:
      'how often the privacy sweep runs due erasures, deletes expired exports and asks the AI backend to forget revoked memory',
  },
  PAYMENTS_SANDBOX: {
    group: 'Payments',
    meaning:
      'the embedded `sandbox` provider, whose Pay button completes a payment without money: `auto` offers it when no other provider is configured, and never with `NODE_ENV=production`; `on` always (production too: a staging deployment); `off` never',
  },
  SANDBOX_WEBHOOK_SECRET: {
    group: 'Payments',
    meaning: "HMAC secret the sandbox page's Pay and Cancel events are signed with (16+ characters)",
    unset: 'derived from `JWT_SECRET`',
  },
  PAYMENT_EXPIRY_MINUTES: {
    group: 'Payments',
    meaning: 'a `pending` payment older than this is `expired` by the sweep job',
  },
  REFUND_WINDOW_DAYS: {
    group: 'Payments',
    meaning: 'payers ask for refunds themselves this long after paying; later only an admin can',
  },
  MARKETPLACE_FEE_PERCENT: {
    group: 'Payments',
    meaning: "the platform's fee on creators' sales (their earnings are the rest)",
  },
  COMMERCE_SWEEP_EVERY: {
    group: 'Payments',
    meaning: 'how often the job ends subscriptions at `endsAt` and expires pending payments',
  },
  STRIPE_SECRET_KEY: {
    group: 'Payments',
    meaning:
      'Stripe (Checkout Session, refunds); with `STRIPE_WEBHOOK_SECRET`, both or neither. Unset: Stripe is not offered',
  },
  STRIPE_WEBHOOK_SECRET: { group: 'Payments', meaning: "checks `Stripe-Signature` on Stripe's webhooks" },
  STRIPE_API_URL: { group: 'Payments', meaning: "Stripe's API base (tests run a server in its place)" },
  VNPAY_TMN_CODE: { group: 'Payments', meaning: 'VNPay merchant code; with `VNPAY_HASH_SECRET`, both or neither' },
  VNPAY_HASH_SECRET: { group: 'Payments', meaning: 'signs VNPay payment URLs and checks IPNs (HMAC-SHA512)' },
  VNPAY_PAYMENT_URL: { group: 'Payments', meaning: 'where payers are sent to pay with VNPay' },
  VNPAY_API_URL: { group: 'Payments', meaning: "VNPay's refund API" },
  MOMO_PARTNER_CODE: {
    group: 'Payments',
    meaning: 'MoMo partner code; with the access and secret keys, all three or none',
  },
  MOMO_ACCESS_KEY: { group: 'Payments', meaning: 'MoMo access key' },
  MOMO_SECRET_KEY: { group: 'Payments', meaning: 'signs MoMo requests and checks IPNs (HMAC-SHA256)' },
  MOMO_API_URL: { group: 'Payments', meaning: "MoMo's API base" },
  CODELAB_WORKERS: {
    group: 'CodeLab',
    meaning: 'CodeLab runs at once per language (Python processes, QuickJS threads); the rest queue',
    unset: 'cores',
  },
  CODELAB_PYTHON_SPARES: {
    group: 'CodeLab',
    meaning:
      'Python processes kept loaded beyond `CODELAB_WORKERS`, each used for one run or for the tests of one submission: runs that find one ready answer at once, the others wait for a process to load (0.4 s of CPU each). Each costs about 150 MB of memory while it waits; set it to the size of a class that presses Run together',
    unset: 'as many as `CODELAB_WORKERS`',
  },
  CODELAB_TIME_LIMIT_MS: {
    group: 'CodeLab',
    meaning:
      'CPU time a run may use (a Python run that waits instead of computing is stopped after five times the limit plus 5 s of wall time)',
  },
  CODELAB_MEMORY_LIMIT_MB: {
    group: 'CodeLab',
    meaning:
      "memory a program may allocate (QuickJS runtime limit under a capped wasm memory; Pyodide's wasm heap beyond the interpreter)",
  },
  CODELAB_RUNS_PER_MINUTE: {
    group: 'CodeLab',
    meaning: '`POST /codelab/run` and `POST /projects/:id/run` per user a minute; more get 429 `rate_limited`',
  },
  CODELAB_JUDGE_CONCURRENCY: {
    group: 'CodeLab',
    meaning: 'submissions an instance judges at a time (their tests queue on the pools)',
  },
  CODELAB_VERDICT_DELAY_PER_TEST_MS: {
    group: 'CodeLab',
    meaning:
      "a submission's verdict, times and score are shown this long times the exercise's number of tests after it was submitted (until then it is `running`), so that how long the hidden tests ran tells nothing of their input; when judging took longer, at twice that, four times that, and so on",
    unset: '`CODELAB_TIME_LIMIT_MS` + 500',
  },
  CODELAB_PREWARM: {
    group: 'CodeLab',
    meaning:
      "load the interpreters at start-up (3 to 4 s for Pyodide's snapshot); the tests of other areas set `false`",
  },
};

/** The markdown of docs/settings.md: one table per group, defaults read from the schema. */
export function settingsReference(defaults: Record<string, unknown>): string {
  const groups = new Map<string, string[]>();
  for (const [name, doc] of Object.entries(SETTING_DOCS) as [string, SettingDoc][]) {
    const value = defaults[name];
    const shown =
      value === undefined || value === '' ? (doc.unset ?? (value === '' ? 'empty' : 'unset')) : `\`${String(value)}\``;
    const rows = groups.get(doc.group) ?? [];
    rows.push(`| \`${name}\` | ${shown} | ${doc.meaning} |`);
    groups.set(doc.group, rows);
  }
  const sections = [...groups].map(([group, rows]) =>
    [`## ${group}`, '', '| Variable | Default | Meaning |', '|---|---|---|', ...rows].join('\n'),
  );
  return [
    '# Settings',
    '',
    'Every setting is an environment variable, checked at start-up: a bad value stops the service with one',
    'line naming the variable. This file is written by `npm run docs:settings` from `src/config.ts` and',
    '`src/config.docs.ts`; a test fails when it is stale.',
    '',
    ...sections.flatMap((section) => [section, '']),
  ].join('\n');
}
