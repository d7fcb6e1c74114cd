import { restRoutes } from '../kernel/rest-route';

/** The REST paths of this area; each runs the operation of that name in `progress.graphql`. */
export const progressRoutes = restRoutes(__dirname, 'progress.graphql', [
  {
    method: 'post',
    path: '/progress/lessons/:lessonId/complete',
    status: 200,
    operation: 'CompleteLesson',
    summary: 'Complete a lesson (harmless twice)',
  },
  {
    method: 'post',
    path: '/progress/lessons/:lessonId/quiz',
    status: 200,
    operation: 'SubmitQuiz',
    summary: "Submit a lesson's quiz answers; scored on the server",
  },
  {
    method: 'get',
    path: '/progress/me',
    status: 200,
    operation: 'MyProgress',
    summary: "The caller's streak, time spent and progress per course",
  },
  {
    method: 'get',
    path: '/progress/courses/:courseId',
    status: 200,
    operation: 'CourseProgress',
    summary: 'Progress in one course',
  },
  {
    method: 'get',
    path: '/guardian/dashboard',
    status: 200,
    operation: 'GuardianDashboard',
    summary: "Every linked learner's progress and certificates",
    body: { wrap: 'items' },
  },
  {
    method: 'get',
    path: '/guardian/learners/:learnerId/progress',
    status: 200,
    operation: 'LearnerProgress',
    summary: "A linked learner's progress",
  },
  {
    method: 'get',
    path: '/guardian/learners/:learnerId/courses',
    status: 200,
    operation: 'LearnerCourses',
    summary: "A linked learner's courses",
    body: { wrap: 'items' },
  },
  {
    method: 'get',
    path: '/guardian/learners/:learnerId/certificates',
    status: 200,
    operation: 'LearnerCertificates',
    summary: "A linked learner's certificates",
    body: { wrap: 'items' },
  },
]);
