import { allow, and } from 'graphql-shield';
import { mayStoreLearnerData } from '../consent';
import { isGuardianOf, isSelfOrGuardian, isVerifiedGuardian, learnerActive } from '../guardian';
import { courseOpen } from '../entitlements';
import { lessonOpen } from '../courses';

const inLesson = and(mayStoreLearnerData, lessonOpen('lessonId'));

export const progressRules = {
  Query: {
    courseProgress: and(learnerActive, courseOpen('courseId')),
    myProgress: learnerActive,
    learnerProgress: isGuardianOf('learnerId'),
    learnerCourses: isGuardianOf('learnerId'),
    learnerCertificates: isGuardianOf('learnerId'),
    guardianDashboard: isVerifiedGuardian,
  },
  Mutation: { completeLesson: inLesson, submitQuiz: inLesson },
  CourseProgress: allow,
  ExerciseProgress: allow,
  LearnerProgress: allow,
  QuizResult: allow,
  QuizAnswerResult: allow,
  DashboardLearner: allow,
  User: { progress: isSelfOrGuardian },
};
