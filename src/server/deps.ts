import { join } from 'node:path';
import type { Logger } from 'pino';
import { areas } from '../areas';
import type { Config } from '../config';
import type { Orm } from '../db/orm';
import { createJobs } from '../jobs/agenda';
import type { Deps } from '../kernel/deps';
import { createPostgresPubSub } from '../kernel/pubsub';
import { createRateLimits } from '../kernel/rate-limit';
import { createMailer } from '../mail/mailer';

export async function createDeps(config: Config, log: Logger, orm: Orm, databaseUrl: string): Promise<Deps> {
  return {
    config,
    log,
    orm,
    mailer: createMailer({ smtpUrl: config.SMTP_URL, from: config.MAIL_FROM, outboxDir: join(config.DATA_DIR, 'outbox') }),
    pubSub: await createPostgresPubSub(databaseUrl, log),
    limits: createRateLimits(config),
    jobs: createJobs(config, databaseUrl, log),
    areas,
  };
}

export async function closeDeps(deps: Deps): Promise<void> {
  // Jobs first: a stage finishing during the drain still stores its output and publishes.
  await deps.jobs.close();
  for (const area of deps.areas) {
    try {
      await area.close?.(deps);
    } catch (error) {
      deps.log.error({ err: error, area: area.name }, 'area did not close cleanly');
    }
  }
  deps.mailer.close();
  await deps.pubSub.close();
}
