import { allow, and } from 'graphql-shield';
import { mayStoreLearnerData } from '../consent';
import { isSelfOrGuardian, learnerActive } from '../guardian';
import { courseOpen } from '../entitlements';
import { isContentEditor as editor } from '../permissions/rules';

export const coursesRules = {
  Query: { courses: allow, course: allow, myCourses: learnerActive },
  Mutation: {
    enroll: and(mayStoreLearnerData, courseOpen('courseId')),
    leaveCourse: learnerActive,
    createCourse: editor,
    updateCourse: editor,
    publishCourse: editor,
    unpublishCourse: editor,
    addLesson: editor,
    updateLesson: editor,
  },
  // Lessons of a paid course: with an entitlement only (the rest of a course is the catalog's).
  Course: { '*': allow, lessons: courseOpen(null) },
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
