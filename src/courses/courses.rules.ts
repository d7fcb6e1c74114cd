import { allow } from 'graphql-shield';
import { isSelfOrGuardian, learnerActive } from '../guardian';
import { isContentEditor as editor } from '../permissions/rules';

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
  EnrollmentConnection: allow,
  EnrollmentEdge: allow,
  User: { enrollments: isSelfOrGuardian },
};
