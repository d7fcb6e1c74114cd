import { allow } from 'graphql-shield';
import { mayStoreLearnerData } from '../consent';
import { isGuardianOf, isVerifiedGuardian, learnerActive } from '../guardian';

export const progressRules = {
  Query: {
    courseProgress: learnerActive,
    myProgress: learnerActive,
    learnerProgress: isGuardianOf('learnerId'),
    learnerCourses: isGuardianOf('learnerId'),
    learnerCertificates: isGuardianOf('learnerId'),
    guardianDashboard: isVerifiedGuardian,
  },
  Mutation: { completeLesson: mayStoreLearnerData, submitQuiz: mayStoreLearnerData },
  CourseProgress: allow,
  LearnerProgress: allow,
  QuizResult: allow,
  QuizAnswerResult: allow,
  DashboardLearner: allow,
};
