import { allRowsOf } from '../kernel/personal-data';
import { defineArea } from '../kernel/area';
import { perProcess } from '../kernel/deps';
import { webPage } from '../kernel/web-page';
import { defineFactoryJobs } from './factory.jobs';
import { FactoryResolver, factoryNodes } from './factory.resolver';
import { factoryRoutes } from './factory.routes';
import { factoryRules } from './factory.rules';
import { FactoryService } from './factory.service';
import { CourseGeneration, GenerationLesson, GenerationStage } from './generation.entity';
import { createFactoryModels } from './providers';
import { Migration20261123000000_course_factory } from './migrations/Migration20261123000000_course_factory';

export type { SafetyFinding } from './generation.entity';
export { ProviderError } from './providers/model';
export type { CourseBrief, LessonBrief } from './providers/model';
export { classify, lessonTexts, localizedTexts } from './safety';
export type { LessonText } from './safety';
export { SafetyFindingView } from './factory.types';

declare module '../kernel/services' {
  interface Services {
    factory: FactoryService;
  }
}

/** The model clients, made once per process from the settings. */
export const factoryModelsOf = perProcess((deps) => createFactoryModels(deps.config));

export const factoryArea = defineArea({
  name: 'factory',
  uses: ['audit', 'auth', 'courses'],
  migrations: [{ name: 'Migration20261123000000_course_factory', class: Migration20261123000000_course_factory }],
  entities: [CourseGeneration, GenerationStage, GenerationLesson],
  resolvers: [FactoryResolver],
  rules: factoryRules,
  nodes: factoryNodes,
  routes: factoryRoutes,
  // The factory page watches generations live through the subscription (WebSocket).
  http: () =>
    webPage({ name: 'admin-factory', paths: ['/admin/factory'], assets: '/admin/factory', connect: 'ws: wss:' }),
  jobs: defineFactoryJobs,
  services: {
    factory: (uow, services) => new FactoryService(uow, factoryModelsOf(uow.deps), services.courses, services.audit),
  },
  personalData: {
    entities: [CourseGeneration, GenerationStage, GenerationLesson],
    export: async (userId, _services, uow) => ({
      generations: await allRowsOf(uow, CourseGeneration, { requestedBy: userId }),
    }),
    // Their stages and lessons go with them (cascade); generations the person decided on lose the name.
    erase: async (userId, _pseudonym, _services, uow) => {
      await uow.em.nativeDelete(CourseGeneration, { requestedBy: userId });
      await uow.em.nativeUpdate(CourseGeneration, { decidedBy: userId }, { decidedBy: null });
    },
  },
});
