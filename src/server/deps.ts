import { join } from 'node:path';
import type { Logger } from 'pino';
import type { Config } from '../config';
import type { Orm } from '../db/orm';
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
}

export async function createDeps(config: Config, log: Logger, orm: Orm, databaseUrl: string): Promise<Deps> {
  return {
    config,
    log,
    orm,
    mailer: createMailer({ smtpUrl: config.SMTP_URL, from: config.MAIL_FROM, outboxDir: join(config.DATA_DIR, 'outbox') }),
    pubSub: await createPostgresPubSub(databaseUrl, log),
    limits: createRateLimits(config),
  };
}

export async function closeDeps(deps: Deps): Promise<void> {
  deps.mailer.close();
  await deps.pubSub.close();
}
