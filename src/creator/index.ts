import { defineArea } from '../kernel/area';
import { allRowsOf } from '../kernel/personal-data';
import { CreatorCourse, CreatorLesson, CreatorMessage } from './creator.entity';
import { CreatorResolver, CreatorUserEdges, creatorNodes } from './creator.resolver';
import { creatorRoutes } from './creator.routes';
import { CREATOR_MESSAGES_BUCKET, creatorRules } from './creator.rules';
import { CreatorService } from './creator.service';
import { Migration20261123140000_creator_studio } from './migrations/Migration20261123140000_creator_studio';

declare module '../kernel/services' {
  interface Services {
    creator: CreatorService;
  }
}

export const creatorArea = defineArea({
  name: 'creator',
  uses: ['audit', 'auth', 'courses', 'factory', 'notifications', 'progress'],
  entities: [CreatorCourse, CreatorLesson, CreatorMessage],
  resolvers: [CreatorResolver, CreatorUserEdges],
  rules: creatorRules,
  rateLimits: (config) => ({
    [CREATOR_MESSAGES_BUCKET]: { points: config.RATE_LIMIT_CREATOR_MESSAGES, seconds: 3600 },
  }),
  nodes: creatorNodes,
  routes: creatorRoutes,
  migrations: [{ name: 'Migration20261123140000_creator_studio', class: Migration20261123140000_creator_studio }],
  services: {
    creator: (uow, services) => new CreatorService(uow, services.courses, services.audit),
  },
  personalData: {
    entities: [CreatorCourse, CreatorLesson, CreatorMessage],
    export: async (userId, _services, uow) => ({
      drafts: await allRowsOf(uow, CreatorCourse, { creator: userId }),
      lessons: await allRowsOf(uow, CreatorLesson, { draft: { creator: userId } }),
      messages: await allRowsOf(uow, CreatorMessage, { creator: userId }),
    }),
    // Drafts and messages are the creator's own (their lessons go with them); published courses are
    // the catalog's and stay. Reviews a content admin made stay under the pseudonym.
    erase: async (userId, _pseudonym, _services, uow) => {
      await uow.em.nativeDelete(CreatorMessage, { creator: userId });
      await uow.em.nativeDelete(CreatorCourse, { creator: userId });
    },
  },
});
