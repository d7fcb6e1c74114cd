import { restRoutes } from '../kernel/rest-route';

/** The REST paths of this area; each runs the operation of that name in `courses.graphql`. */
export const coursesRoutes = restRoutes(__dirname, 'courses.graphql', [
  {
    method: 'get',
    path: '/courses',
    status: 200,
    operation: 'Courses',
    summary: "Published courses by level, age (a learner's own by default), language and words",
    body: 'list',
  },
  {
    method: 'get',
    path: '/courses/me',
    status: 200,
    operation: 'MyCourses',
    summary: "The caller's courses",
    body: { wrap: 'items' },
  },
  { method: 'get', path: '/courses/:id', status: 200, operation: 'Course', summary: 'A course with its lessons' },
  {
    method: 'post',
    path: '/courses',
    status: 201,
    operation: 'CreateCourse',
    summary: 'Create a course with its lessons and quizzes (content admins)',
  },
  {
    method: 'put',
    path: '/courses/:id',
    status: 200,
    operation: 'UpdateCourse',
    summary: 'Edit a course (content admins)',
  },
  {
    method: 'post',
    path: '/courses/:id/publish',
    status: 200,
    operation: 'PublishCourse',
    summary: 'Publish a course (content admins)',
  },
  {
    method: 'post',
    path: '/courses/:id/unpublish',
    status: 200,
    operation: 'UnpublishCourse',
    summary: 'Unpublish a course (content admins)',
  },
  {
    method: 'post',
    path: '/courses/:id/lessons',
    status: 201,
    operation: 'AddLesson',
    summary: 'Add a lesson and its quiz (content admins)',
  },
  {
    method: 'put',
    path: '/courses/:id/lessons/:lessonId',
    status: 200,
    operation: 'UpdateLesson',
    summary: "Replace a lesson's texts and quiz (content admins)",
  },
  { method: 'post', path: '/courses/:id/enrollment', status: 201, operation: 'Enroll', summary: 'Enroll in a course' },
  {
    method: 'delete',
    path: '/courses/:id/enrollment',
    status: 204,
    operation: 'LeaveCourse',
    summary: 'Leave a course',
  },
]);
