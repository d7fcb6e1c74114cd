import { allow } from 'graphql-shield';
import { isGuardianOf, isSelfOrGuardian, isVerifiedGuardian, learnerActive } from '../guardian';

export const progressRules = {
  Query: {
    courseProgress: learnerActive,
    myProgress: learnerActive,
    learnerProgress: isGuardianOf('learnerId'),
    learnerCourses: isGuardianOf('learnerId'),
    learnerCertificates: isGuardianOf('learnerId'),
    guardianDashboard: isVerifiedGuardian,
  },
  Mutation: { completeLesson: learnerActive, submitQuiz: learnerActive },
  CourseProgress: allow,
  LearnerProgress: allow,
  QuizResult: allow,
  QuizAnswerResult: allow,
  DashboardLearner: allow,
  User: { progress: isSelfOrGuardian },
};
