import { allRowsOf } from '../kernel/personal-data';
import { writeSharedData } from '../kernel/shared-data';
import { defineArea } from '../kernel/area';
import { Course, Enrollment, Lesson } from './course.entity';
import { CourseEdges, CoursesUserEdges, coursesNodes } from './courses.graph';
import { CoursesResolver } from './courses.resolver';
import { coursesRoutes } from './courses.routes';
import { coursesRules } from './courses.rules';
import { CoursesService } from './courses.service';
import { Migration20261130000500_course_titles_view } from './migrations/Migration20261130000500_course_titles_view';
import { Migration20261122040000_learning } from './migrations/Migration20261122040000_learning';

export type { Enrollment } from './course.entity';
export {
  CourseDescriptionChangeInput,
  CourseDescriptionInput,
  LessonBodyView,
  LessonInput,
  lessonOf,
  presentLessonBody,
} from './courses.types';

export type { Course, Lesson } from './course.entity';
export { CourseLevel } from './course.entity';
export { assertQuiz, LessonBody, lessonBodyOf } from './lesson-body';
export type { LessonObjectives, NewLesson, Quiz, QuizQuestion } from './lesson-body';
export { CourseView, EnrollmentConnection, EnrollmentView } from './courses.types';
export { presentEnrollment } from './courses.resolver';
export { lessonOpen } from './lesson-open';
export type { CoursesService } from './courses.service';

declare module '../kernel/services' {
  interface Services {
    courses: CoursesService;
  }
}

export const coursesArea = defineArea({
  name: 'courses',
  uses: ['auth', 'consent', 'entitlements', 'guardian'],
  sharedTables: ['courses', 'lessons'],
  entities: [Course, Lesson, Enrollment],
  migrations: [
    { name: 'Migration20261122040000_learning', class: Migration20261122040000_learning },
    { name: 'Migration20261130000500_course_titles_view', class: Migration20261130000500_course_titles_view },
  ],
  resolvers: [CoursesResolver, CoursesUserEdges, CourseEdges],
  nodes: coursesNodes,
  rules: coursesRules,
  routes: coursesRoutes,
  services: { courses: (uow) => new CoursesService(uow) },
  personalData: {
    entities: [Course, Enrollment],
    export: async (userId, _services, uow) => ({
      enrollments: await allRowsOf(uow, Enrollment, { learner: userId }),
      coursesCreated: (await uow.em.find(Course, { createdBy: userId })).map((c) => ({
        id: c.id,
        title: c.title,
        createdAt: c.createdAt,
      })),
    }),
    // Courses the person wrote stay for their learners, without an author.
    erase: async (userId, _pseudonym, _services, uow) => {
      await uow.em.nativeDelete(Enrollment, { learner: userId });
      await writeSharedData(uow, 'update courses set created_by_id = null where created_by_id = ?', [userId]);
    },
  },
});
