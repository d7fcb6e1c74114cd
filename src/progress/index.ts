import { defineArea } from '../kernel/area';
import { LessonCompletion, QuizAttempt } from './progress.entity';
import { ProgressResolver } from './progress.resolver';
import { progressRoutes } from './progress.routes';
import { progressRules } from './progress.rules';
import { ProgressService } from './progress.service';

export type { CourseProgress, ProgressService } from './progress.service';
export { CourseProgressView } from './progress.types';

declare module '../kernel/services' {
  interface Services {
    progress: ProgressService;
  }
}

export const progressArea = defineArea({
  name: 'progress',
  entities: [LessonCompletion, QuizAttempt],
  resolvers: [ProgressResolver],
  rules: progressRules,
  routes: progressRoutes,
  services: { progress: (uow, services) => new ProgressService(uow, services.courses, services.certificates, services.notifications) },
  personalData: { entities: [LessonCompletion, QuizAttempt] },
});
