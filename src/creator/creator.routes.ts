import { restRoutes } from '../kernel/rest-route';

/** The REST paths of this area; each runs the operation of that name in `creator.graphql`. */
export const creatorRoutes = restRoutes(__dirname, 'creator.graphql', [
  {
    method: 'post',
    path: '/creator/courses',
    status: 201,
    operation: 'CreateCreatorCourse',
    summary: 'Start a course draft (creators)',
  },
  {
    method: 'get',
    path: '/creator/courses',
    status: 200,
    operation: 'CreatorCourses',
    summary: "The caller's courses with their lessons (creators)",
    body: { wrap: 'items' },
  },
  {
    method: 'get',
    path: '/creator/reviews',
    status: 200,
    operation: 'CreatorReviewQueue',
    summary: 'Courses in review, oldest submission first (content admins)',
    body: { wrap: 'items' },
  },
  {
    method: 'get',
    path: '/creator/analytics',
    status: 200,
    operation: 'CreatorAnalytics',
    summary: 'Enrollments, completions, average score and earnings per course (creators)',
    body: { wrap: 'items' },
  },
  {
    method: 'put',
    path: '/creator/courses/:id',
    status: 200,
    operation: 'UpdateCreatorCourse',
    summary: 'Edit a draft or rejected course (its creator)',
  },
  {
    method: 'post',
    path: '/creator/courses/:id/lessons',
    status: 201,
    operation: 'AddCreatorLesson',
    summary: 'Add a lesson and its quiz (its creator)',
  },
  {
    method: 'put',
    path: '/creator/courses/:id/lessons/:lessonId',
    status: 200,
    operation: 'UpdateCreatorLesson',
    summary: "Replace a lesson's texts and quiz (its creator)",
  },
  {
    method: 'post',
    path: '/creator/courses/:id/submit',
    status: 200,
    operation: 'SubmitCreatorCourse',
    summary: 'Send to review (in_review); the safety check runs (its creator)',
  },
  {
    method: 'post',
    path: '/creator/courses/:id/approve',
    status: 200,
    operation: 'ApproveCreatorCourse',
    summary: 'Publish a course in review as a course (content admins); audited',
  },
  {
    method: 'post',
    path: '/creator/courses/:id/reject',
    status: 200,
    operation: 'RejectCreatorCourse',
    summary: 'Send a course back with a reason (content admins); audited',
  },
  {
    method: 'post',
    path: '/creator/courses/:id/messages',
    status: 201,
    operation: 'MessageCreatorLearners',
    summary:
      'A creator_message notification to each enrolled learner (its creator; RATE_LIMIT_CREATOR_MESSAGES an hour)',
  },
  {
    method: 'post',
    path: '/creator/courses/:id/assist',
    status: 200,
    operation: 'AssistCreatorCourse',
    summary:
      "A model's suggestion (outline, lesson, quiz, review) through the factory's providers, safety-checked; nothing saved (its creator)",
  },
]);
