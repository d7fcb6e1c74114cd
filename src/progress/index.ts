import { rowsOf } from '../kernel/personal-data';
import { defineArea } from '../kernel/area';
import { LessonCompletion, QuizAttempt } from './progress.entity';
import { CourseProgressEdges, EnrollmentEdges, ProgressUserEdges } from './progress.graph';
import { ProgressResolver } from './progress.resolver';
import { progressRoutes } from './progress.routes';
import { progressRules } from './progress.rules';
import { ProgressService } from './progress.service';

export type { CourseProgress, ProgressService } from './progress.service';
export { CourseProgressView, LearnerOverviewView } from './progress.types';

declare module '../kernel/services' {
  interface Services {
    progress: ProgressService;
  }
}

export const progressArea = defineArea({
  name: 'progress',
  entities: [LessonCompletion, QuizAttempt],
  resolvers: [ProgressResolver, ProgressUserEdges, EnrollmentEdges, CourseProgressEdges],
  rules: progressRules,
  routes: progressRoutes,
  services: { progress: (uow, services) => new ProgressService(uow, services.courses, services.certificates, services.notifications) },
  personalData: {
    entities: [LessonCompletion, QuizAttempt],
    export: async (userId, _services, uow) => ({
      lessonCompletions: rowsOf(uow, LessonCompletion, { learner: userId }),
      quizAttempts: rowsOf(uow, QuizAttempt, { learner: userId }),
    }),
    erase: async (userId, _pseudonym, _services, uow) => {
      await uow.em.nativeDelete(QuizAttempt, { learner: userId });
      await uow.em.nativeDelete(LessonCompletion, { learner: userId });
    },
  },
});
