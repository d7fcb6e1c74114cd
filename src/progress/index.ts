import { rowsOf } from '../kernel/personal-data';
import { defineArea } from '../kernel/area';
import { ExerciseResult, LessonCompletion, QuizAttempt } from './progress.entity';
import { Migration20261123160000_exercise_results } from './migrations/Migration20261123160000_exercise_results';
import { Migration20261130000000_learner_activity_view } from './migrations/Migration20261130000000_learner_activity_view';
import { CourseProgressEdges, EnrollmentEdges, ProgressUserEdges } from './progress.graph';
import { ProgressResolver } from './progress.resolver';
import { progressRoutes } from './progress.routes';
import { progressRules } from './progress.rules';
import { ProgressService } from './progress.service';
import { Migration20261122040000_learning_progress } from './migrations/Migration20261122040000_learning_progress';

export type { CourseFigures, CourseProgress, ProgressService } from './progress.service';
export { averageScore } from './progress.service';
export { CourseProgressView, LearnerOverviewView } from './progress.types';

declare module '../kernel/services' {
  interface Services {
    progress: ProgressService;
  }
}

export const progressArea = defineArea({
  name: 'progress',
  uses: ['auth', 'certificates', 'consent', 'courses', 'entitlements', 'guardian'],
  entities: [LessonCompletion, QuizAttempt, ExerciseResult],
  migrations: [
    { name: 'Migration20261122040000_learning_progress', class: Migration20261122040000_learning_progress },
    { name: 'Migration20261123160000_exercise_results', class: Migration20261123160000_exercise_results },
    { name: 'Migration20261130000000_learner_activity_view', class: Migration20261130000000_learner_activity_view },
  ],
  resolvers: [ProgressResolver, ProgressUserEdges, EnrollmentEdges, CourseProgressEdges],
  rules: progressRules,
  routes: progressRoutes,
  services: {
    progress: (uow, services) => new ProgressService(uow, services.courses, services.certificates, services.auth),
  },
  on: {
    // A judged CodeLab submission: its best score joins the learner's progress, and an accepted
    // exercise linked to a lesson completes that lesson.
    exerciseJudged: (event, services) => services.progress.exerciseJudged(event),
  },
  personalData: {
    entities: [LessonCompletion, QuizAttempt, ExerciseResult],
    export: async (userId, _services, uow) => ({
      lessonCompletions: rowsOf(uow, LessonCompletion, { learner: userId }),
      quizAttempts: rowsOf(uow, QuizAttempt, { learner: userId }),
      exerciseResults: rowsOf(uow, ExerciseResult, { learner: userId }),
    }),
    erase: async (userId, _pseudonym, _services, uow) => {
      await uow.em.nativeDelete(ExerciseResult, { learner: userId });
      await uow.em.nativeDelete(QuizAttempt, { learner: userId });
      await uow.em.nativeDelete(LessonCompletion, { learner: userId });
    },
  },
});
