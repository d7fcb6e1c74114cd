import { restRoutes } from '../kernel/rest-route';

/** The REST paths of this area; each runs the operation of that name in `school.graphql`. */
export const schoolRoutes = restRoutes(__dirname, 'school.graphql', [
  {
    method: 'post',
    path: '/school',
    status: 201,
    operation: 'CreateSchool',
    summary: 'Create a school (admins); audited',
  },
  {
    method: 'get',
    path: '/school/me',
    status: 200,
    operation: 'SchoolMe',
    summary: "The caller's schools and classes, and a guardian's learners' classes",
  },
  {
    method: 'post',
    path: '/school/join',
    status: 201,
    operation: 'JoinClass',
    summary: 'Join a class with its code (learners); pending_consent under 18 until a guardian grants progress_sharing',
  },
  {
    method: 'post',
    path: '/school/:id/members',
    status: 201,
    operation: 'SetSchoolMember',
    summary: 'Give a person the school_admin or teacher role in the school (its admins); audited',
  },
  {
    method: 'post',
    path: '/school/:id/classes',
    status: 201,
    operation: 'CreateClass',
    summary: "Create a class with an 8-character join code (the school's staff)",
  },
  {
    method: 'get',
    path: '/school/classes/:id',
    status: 200,
    operation: 'SchoolClass',
    summary: "A class's roster and courses (the school's staff)",
  },
  {
    method: 'get',
    path: '/school/classes/:id/progress',
    status: 200,
    operation: 'ClassProgress',
    summary: "Progress of the class's active members; the others listed without it (the school's staff)",
  },
  {
    method: 'post',
    path: '/school/classes/:id/join-code',
    status: 200,
    operation: 'RotateJoinCode',
    summary: "Replace the class's join code; the old one stops working (the school's staff)",
  },
  {
    method: 'post',
    path: '/school/classes/:id/courses',
    status: 201,
    operation: 'AssignClassCourse',
    summary: "Assign a course to the class (the school's staff)",
  },
]);
