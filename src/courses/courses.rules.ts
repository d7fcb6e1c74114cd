import { allow } from 'graphql-shield';
import { Role } from '../auth/user.entity';
import { learnerActive } from '../guardian/guardian.rules';
import { hasRole } from '../permissions/rules';

const editor = hasRole(Role.content_admin, Role.admin);

export const coursesRules = {
  Query: { courses: allow, course: allow, myCourses: learnerActive },
  Mutation: { enroll: learnerActive, leaveCourse: learnerActive, createCourse: editor, updateCourse: editor, publishCourse: editor, unpublishCourse: editor, addLesson: editor, updateLesson: editor },
  Course: allow,
  CourseConnection: allow,
  CourseEdge: allow,
  Lesson: allow,
  LocalizedText: allow,
  LocalizedList: allow,
  QuizQuestionView: allow,
  Enrollment: allow,
};
