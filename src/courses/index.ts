import { defineArea } from '../kernel/area';
import { Course, Enrollment, Lesson } from './course.entity';
import { CoursesResolver } from './courses.resolver';
import { coursesRoutes } from './courses.routes';
import { coursesRules } from './courses.rules';
import { CoursesService } from './courses.service';

export { Enrollment } from './course.entity';
export { LessonInput, LocalizedTextInput } from './courses.types';

export { Course, Lesson } from './course.entity';
export { CourseLevel } from './course.entity';
export type { Localized, Quiz, QuizQuestion } from './course.entity';
export { EnrollmentView, LocalizedListView, LocalizedTextView } from './courses.types';
export type { CoursesService } from './courses.service';

declare module '../kernel/services' {
  interface Services {
    courses: CoursesService;
  }
}

export const coursesArea = defineArea({
  name: 'courses',
  entities: [Course, Lesson, Enrollment],
  resolvers: [CoursesResolver],
  rules: coursesRules,
  routes: coursesRoutes,
  services: { courses: (uow) => new CoursesService(uow) },
  personalData: { entities: [Enrollment] },
});
