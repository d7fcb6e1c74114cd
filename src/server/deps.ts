import type { Logger } from 'pino';
import type { Config } from '../config';
import type { Orm } from '../db/orm';
import type { Mailer } from '../mail/mailer';
import type { EventPubSub } from './pubsub';
import type { RateLimits } from './rate-limit';

/** What lives as long as the process: handed to every request's services. */
export interface Deps {
  config: Config;
  log: Logger;
  orm: Orm;
  mailer: Mailer;
  pubSub: EventPubSub;
  limits: RateLimits;
}
