import { join } from 'node:path';
import type { Logger } from 'pino';
import { AiBackend } from '../ai/ai.backend';
import type { Config } from '../config';
import type { Orm } from '../db/orm';
import { createFactoryModels, type FactoryModels } from '../factory/providers';
import { createJobs, type Jobs } from '../jobs/agenda';
import { createMailer, type Mailer } from '../mail/mailer';
import { createPostgresPubSub, type EventPubSub } from './pubsub';
import { createRateLimits, type RateLimits } from './rate-limit';

/** What lives as long as the process: handed to every request's services. */
export interface Deps {
  config: Config;
  log: Logger;
  orm: Orm;
  mailer: Mailer;
  pubSub: EventPubSub;
  limits: RateLimits;
  /** Per process, so its circuit breaker sees every request. */
  aiBackend: AiBackend;
  /** Agenda: started once every area has defined its jobs. */
  jobs: Jobs;
  factoryModels: FactoryModels;
}

export async function createDeps(config: Config, log: Logger, orm: Orm, databaseUrl: string): Promise<Deps> {
  return {
    config,
    log,
    orm,
    mailer: createMailer({ smtpUrl: config.SMTP_URL, from: config.MAIL_FROM, outboxDir: join(config.DATA_DIR, 'outbox') }),
    pubSub: await createPostgresPubSub(databaseUrl, log),
    limits: createRateLimits(config),
    aiBackend: new AiBackend(config, log),
    jobs: createJobs(config, databaseUrl, log),
    factoryModels: createFactoryModels(config),
  };
}

export async function closeDeps(deps: Deps): Promise<void> {
  // Jobs first: a stage finishing during the drain still stores its output and publishes.
  await deps.jobs.close();
  deps.mailer.close();
  await deps.pubSub.close();
}
