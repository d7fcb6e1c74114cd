import { defineArea } from '../kernel/area';
import { CreatorCourse, CreatorLesson, CreatorMessage } from './creator.entity';
import { CreatorResolver } from './creator.resolver';
import { creatorRoutes } from './creator.routes';
import { creatorRules } from './creator.rules';
import { CreatorService } from './creator.service';
import { Migration20261123140000_creator_studio } from './migrations/Migration20261123140000_creator_studio';

declare module '../kernel/services' {
  interface Services {
    creator: CreatorService;
  }
}

export const creatorArea = defineArea({
  name: 'creator',
  entities: [CreatorCourse, CreatorLesson, CreatorMessage],
  resolvers: [CreatorResolver],
  rules: creatorRules,
  routes: creatorRoutes,
  migrations: [{ name: 'Migration20261123140000_creator_studio', class: Migration20261123140000_creator_studio }],
  services: { creator: (uow, services) => new CreatorService(uow, services.courses, services.notifications, services.audit) },
  personalData: { entities: [CreatorCourse, CreatorMessage] },
});
