/**
 * The REST layer of the specification as a table: each path runs a stored GraphQL operation, so
 * REST and GraphQL share resolvers, permission rules and limits.
 *
 * Variables come from the request by name: path parameters, query parameters (`limit` and `cursor`
 * become `first` and `after`), and the JSON body, which is `$input` when the operation takes one and
 * otherwise gives its fields by name. Success is `status` with the value of the operation's one
 * root field, shaped by `body`: `list` (a connection as `{ items, nextCursor }`), `accepted`
 * (`{ accepted: true }`), or `{ wrap: 'user' }` (`{ user: <value> }`).
 */
export type BodyMapping = 'list' | 'accepted' | { wrap: string };

export interface RestRoute {
  method: 'get' | 'post' | 'put' | 'delete';
  path: string;
  operation: string;
  status: 200 | 201 | 202 | 204;
  summary: string;
  body?: BodyMapping;
}

const USER = 'id email emailVerified displayName roles birthDate country locale tier status createdAt';
const SESSION = `user { ${USER} } accessToken refreshToken expiresIn`;

const PARTY = 'id displayName email';
const LINK = `id status primary guardian { ${PARTY} } learner { ${PARTY} } learnerEmail createdAt activatedAt revokedAt history { status actorId at }`;
const LEARNER = 'id displayName email birthDate country locale status';
const AI_ACCESS = 'enabled memoryEnabled dailyMessageLimit';
const CONSENT = 'consentTypeId granted needsGuardian needsOwnConsent canGrantAlone guardianGrantedBy { id displayName } guardianGrantedAt ownGrantedAt policyVersion';
const LEDGER = 'id subjectId consentTypeId action actorId actorRole country policyVersion createdAt';
const POLICY = 'country region guardianConsentAge childConsentAge aiGuardianConsentAge dataResidency rules version updatedAt';
const TEXT = 'en vi';
const COURSE = `id title { ${TEXT} } description { ${TEXT} } level minAge maxAge language passMark published createdAt`;
const LESSON = `id position title { ${TEXT} } objectives { en vi } content { ${TEXT} } quiz { prompt { ${TEXT} } options { ${TEXT} } }`;
const ENROLLMENT = `course { ${COURSE} } enrolledAt`;
const COURSE_PROGRESS = `courseId courseTitle { ${TEXT} } lessonsTotal lessonsCompleted percent averageScore timeSpentSeconds lastActivityAt completed`;
const OVERVIEW = `learnerId streakDays lastActivityAt timeSpentSeconds courses { ${COURSE_PROGRESS} }`;
const CERTIFICATE = `id code courseId courseTitle { ${TEXT} } learnerName averageScore issuedAt`;
const NOTIFICATION = 'id type title body data read readAt createdAt';
const GENERATION_SUMMARY = 'id topic level ageRange lessonCount status currentStage progress courseId error requestedById decidedById decidedAt createdAt updatedAt stages { name status attempts startedAt finishedAt error providerMs }';
const GENERATION = GENERATION_SUMMARY.replace('error providerMs }', 'error output providerMs }');
const GENERATED_LESSON = `position title { ${TEXT} } objectives { en vi } content { ${TEXT} } quiz findings { category source field excerpt } flagged revision`;

export const routes: RestRoute[] = [
  { method: 'get', path: '/health', status: 200, summary: 'Health of the API and its database', operation: 'query Health { health { status database latencyMs } }' },
  { method: 'get', path: '/health/email', status: 200, summary: 'Health of the e-mail system', operation: 'query EmailHealth { emailHealth { status transport } }' },

  { method: 'post', path: '/auth/signup', status: 201, summary: 'Sign up; a verification mail is sent', operation: `mutation Signup($input: SignupInput!) { signup(input: $input) { ${SESSION} } }` },
  { method: 'post', path: '/auth/login', status: 200, summary: 'Log in', operation: `mutation Login($input: LoginInput!) { login(input: $input) { ${SESSION} } }` },
  { method: 'post', path: '/auth/refresh', status: 200, summary: 'Trade a refresh token for a new pair', operation: `mutation Refresh($input: RefreshTokenInput!) { refreshSession(input: $input) { ${SESSION} } }` },
  { method: 'post', path: '/auth/logout', status: 204, summary: 'End the session of a refresh token', operation: 'mutation Logout($input: RefreshTokenInput!) { logout(input: $input) }' },
  { method: 'post', path: '/auth/verify-email', status: 200, summary: 'Verify the e-mail address with the mailed token', operation: `mutation VerifyEmail($input: TokenInput!) { verifyEmail(input: $input) { ${USER} } }`, body: { wrap: 'user' } },
  { method: 'post', path: '/auth/resend-verification', status: 202, summary: 'Send the verification mail again', operation: 'mutation ResendVerification($input: EmailInput!) { resendVerification(input: $input) }', body: 'accepted' },
  { method: 'post', path: '/auth/forgot-password', status: 202, summary: 'Mail a password reset link (same answer for unknown addresses)', operation: 'mutation ForgotPassword($input: EmailInput!) { forgotPassword(input: $input) }', body: 'accepted' },
  { method: 'post', path: '/auth/reset-password', status: 204, summary: 'Set a new password with the mailed token; every session ends', operation: 'mutation ResetPassword($input: ResetPasswordInput!) { resetPassword(input: $input) }' },
  { method: 'get', path: '/auth/me', status: 200, summary: 'The signed-in account', operation: `query Me { me { ${USER} } }`, body: { wrap: 'user' } },

  {
    method: 'get',
    path: '/admin/users',
    status: 200,
    summary: 'List accounts, newest first, filtered by role, status or e-mail (admins)',
    operation: `query Users($first: Int, $after: String, $role: Role, $status: AccountStatus, $email: String) {
      users(first: $first, after: $after, filter: { role: $role, status: $status, email: $email }) { edges { node { ${USER} } } pageInfo { hasNextPage endCursor } }
    }`,
    body: 'list',
  },
  { method: 'post', path: '/admin/users/:id/roles', status: 200, summary: 'Grant a role (admins); recorded', operation: `mutation GrantRole($id: ID!, $role: Role!) { grantRole(userId: $id, role: $role) { ${USER} } }` },
  { method: 'delete', path: '/admin/users/:id/roles/:role', status: 200, summary: 'Remove a role (admins); recorded', operation: `mutation RemoveRole($id: ID!, $role: Role!) { removeRole(userId: $id, role: $role) { ${USER} } }` },

  {
    method: 'get',
    path: '/notifications',
    status: 200,
    summary: "The caller's notifications, newest first; filter unread, read or all",
    operation: `query Notifications($first: Int, $after: String, $filter: NotificationFilter) {
      notifications(first: $first, after: $after, filter: $filter) { edges { node { ${NOTIFICATION} } } pageInfo { hasNextPage endCursor } }
    }`,
    body: 'list',
  },
  { method: 'get', path: '/notifications/unread-count', status: 200, summary: 'Number of unread notifications', operation: 'query UnreadCount { unreadNotificationCount { count } }' },
  { method: 'post', path: '/notifications/read-all', status: 200, summary: 'Mark every notification read', operation: 'mutation ReadAll { markAllNotificationsRead { updated } }' },
  { method: 'post', path: '/notifications/:id/read', status: 200, summary: 'Mark one notification read', operation: `mutation MarkRead($id: ID!) { markNotificationRead(id: $id) { ${NOTIFICATION} } }` },
  { method: 'delete', path: '/notifications/:id', status: 204, summary: 'Delete one notification', operation: 'mutation DeleteNotification($id: ID!) { deleteNotification(id: $id) }' },
  { method: 'get', path: '/notifications/settings', status: 200, summary: 'Notification types the caller turned off', operation: 'query NotificationSettings { notificationSettings { disabledTypes } }' },
  {
    method: 'put',
    path: '/notifications/settings',
    status: 200,
    summary: 'Turn notification types off (or on again)',
    operation: 'mutation UpdateNotificationSettings($input: NotificationSettingsInput!) { updateNotificationSettings(input: $input) { disabledTypes } }',
  },

  { method: 'post', path: '/guardian/declare', status: 201, summary: 'Declare a link to a learner by e-mail; it waits for the learner', operation: `mutation DeclareLearner($input: DeclareLearnerInput!) { declareLearner(input: $input) { ${LINK} } }` },
  { method: 'post', path: '/guardian/learners', status: 201, summary: 'Add a child without an e-mail of their own; the link is active at once', operation: `mutation AddChild($input: AddChildInput!) { addChild(input: $input) { ${LINK} } }` },
  { method: 'post', path: '/guardian/links/confirm', status: 200, summary: 'Confirm a link with the token mailed to the learner', operation: `mutation ConfirmGuardianLink($input: ConfirmLinkInput!) { confirmGuardianLink(input: $input) { ${LINK} } }` },
  { method: 'post', path: '/guardian/links/:id/approve', status: 200, summary: 'Approve a pending link (the learner or an admin)', operation: `mutation ApproveGuardianLink($id: ID!) { approveGuardianLink(id: $id) { ${LINK} } }` },
  { method: 'post', path: '/guardian/links/:id/revoke', status: 200, summary: 'Revoke a link (the guardian, the learner from 16, an admin)', operation: `mutation RevokeGuardianLink($id: ID!) { revokeGuardianLink(id: $id) { ${LINK} } }` },
  {
    method: 'get',
    path: '/guardian/me/links',
    status: 200,
    summary: "The caller's links, as guardian and as learner",
    operation: `query MyGuardianLinks($first: Int, $after: String) { myGuardianLinks(first: $first, after: $after) { edges { node { ${LINK} } } pageInfo { hasNextPage endCursor } } }`,
    body: 'list',
  },
  { method: 'get', path: '/guardian/learners/:learnerId', status: 200, summary: 'A linked learner (their active guardian)', operation: `query LinkedLearner($learnerId: ID!) { linkedLearner(learnerId: $learnerId) { ${LEARNER} } }` },
  { method: 'get', path: '/guardian/learners/:learnerId/consents', status: 200, summary: "A linked learner's consents", operation: `query LearnerConsents($learnerId: ID) { consents(learnerId: $learnerId) { ${CONSENT} } }`, body: { wrap: 'items' } },
  { method: 'get', path: '/guardian/learners/:learnerId/ai-access', status: 200, summary: "A linked learner's AI restrictions", operation: `query LearnerAiAccess($learnerId: ID!) { learnerAiAccess(learnerId: $learnerId) { ${AI_ACCESS} } }` },
  { method: 'put', path: '/guardian/learners/:learnerId/ai-access', status: 200, summary: "Restrict a linked learner's AI use", operation: `mutation UpdateLearnerAiAccess($learnerId: ID!, $input: AiAccessInput!) { updateLearnerAiAccess(learnerId: $learnerId, input: $input) { ${AI_ACCESS} } }` },

  { method: 'get', path: '/consent/me', status: 200, summary: "The caller's consents: state, who must give them, who did", operation: `query MyConsents { consents { ${CONSENT} } }`, body: { wrap: 'items' } },
  { method: 'post', path: '/consent/grant', status: 200, summary: 'Grant a consent (learnerId: as guardian of a linked learner)', operation: `mutation GrantConsent($input: ConsentChangeInput!) { grantConsent(input: $input) { ${CONSENT} } }` },
  { method: 'post', path: '/consent/revoke', status: 200, summary: 'Revoke a consent; the feature stops at once', operation: `mutation RevokeConsent($input: ConsentChangeInput!) { revokeConsent(input: $input) { ${CONSENT} } }` },
  { method: 'get', path: '/consent/ledger', status: 200, summary: 'Every grant and revoke of the caller (or learnerId)', operation: `query ConsentLedger($learnerId: ID) { consentLedger(learnerId: $learnerId) { ${LEDGER} } }`, body: { wrap: 'items' } },

  { method: 'get', path: '/country-policy', status: 200, summary: "A country's consent rules", operation: `query CountryPolicy($country: String!) { countryPolicy(country: $country) { ${POLICY} } }` },
  { method: 'put', path: '/country-policy/:country', status: 200, summary: "Change a country's rules (admins); every change is kept", operation: `mutation UpdateCountryPolicy($country: String!, $input: CountryPolicyInput!) { updateCountryPolicy(country: $country, input: $input) { ${POLICY} } }` },

  { method: 'post', path: '/ai/chat', status: 200, summary: 'Send a message to the AI tutor (Accept: text/event-stream streams the answer)', operation: 'mutation AiChat($input: AiChatInput!) { aiChat(input: $input) { conversationId reply tokens } }' },
  { method: 'get', path: '/ai/quota', status: 200, summary: "The caller's AI messages today", operation: 'query AiQuota { aiQuota { tier period limit used remaining resetsAt } }' },
  { method: 'get', path: '/ai/conversations', status: 200, summary: "The caller's AI conversations", operation: 'query AiConversations { aiConversations }', body: { wrap: 'items' } },
  { method: 'get', path: '/ai/memory', status: 200, summary: 'What the AI remembers of the caller (Starter tier and above)', operation: 'query AiMemory { aiMemory }', body: { wrap: 'items' } },
  { method: 'delete', path: '/ai/memory', status: 204, summary: 'Make the AI forget what it remembers of the caller', operation: 'mutation ForgetAiMemory { forgetAiMemory }' },

  {
    method: 'get',
    path: '/courses',
    status: 200,
    summary: "Published courses by level, age (a learner's own by default), language and words",
    operation: `query Courses($first: Int, $after: String, $level: CourseLevel, $age: Int, $language: String, $q: String) {
      courses(first: $first, after: $after, level: $level, age: $age, language: $language, q: $q) { edges { node { ${COURSE} } } pageInfo { hasNextPage endCursor } }
    }`,
    body: 'list',
  },
  { method: 'get', path: '/courses/me', status: 200, summary: "The caller's courses", operation: `query MyCourses { myCourses { ${ENROLLMENT} } }`, body: { wrap: 'items' } },
  { method: 'get', path: '/courses/:id', status: 200, summary: 'A course with its lessons', operation: `query Course($id: ID!) { course(id: $id) { ${COURSE} lessons { ${LESSON} } } }` },
  { method: 'post', path: '/courses', status: 201, summary: 'Create a course with its lessons and quizzes (content admins)', operation: `mutation CreateCourse($input: CourseInput!) { createCourse(input: $input) { ${COURSE} lessons { ${LESSON} } } }` },
  { method: 'put', path: '/courses/:id', status: 200, summary: 'Edit a course (content admins)', operation: `mutation UpdateCourse($id: ID!, $input: CourseChangeInput!) { updateCourse(id: $id, input: $input) { ${COURSE} } }` },
  { method: 'post', path: '/courses/:id/publish', status: 200, summary: 'Publish a course (content admins)', operation: `mutation PublishCourse($id: ID!) { publishCourse(id: $id) { ${COURSE} } }` },
  { method: 'post', path: '/courses/:id/unpublish', status: 200, summary: 'Unpublish a course (content admins)', operation: `mutation UnpublishCourse($id: ID!) { unpublishCourse(id: $id) { ${COURSE} } }` },
  { method: 'post', path: '/courses/:id/lessons', status: 201, summary: 'Add a lesson and its quiz (content admins)', operation: `mutation AddLesson($id: ID!, $input: LessonInput!) { addLesson(courseId: $id, input: $input) { ${LESSON} } }` },
  { method: 'put', path: '/courses/:id/lessons/:lessonId', status: 200, summary: "Replace a lesson's texts and quiz (content admins)", operation: `mutation UpdateLesson($id: ID!, $lessonId: ID!, $input: LessonInput!) { updateLesson(courseId: $id, lessonId: $lessonId, input: $input) { ${LESSON} } }` },
  { method: 'post', path: '/courses/:id/enrollment', status: 201, summary: 'Enroll in a course', operation: `mutation Enroll($id: ID!) { enroll(courseId: $id) { ${ENROLLMENT} } }` },
  { method: 'delete', path: '/courses/:id/enrollment', status: 204, summary: 'Leave a course', operation: 'mutation LeaveCourse($id: ID!) { leaveCourse(courseId: $id) }' },

  { method: 'post', path: '/progress/lessons/:lessonId/complete', status: 200, summary: 'Complete a lesson (harmless twice)', operation: `mutation CompleteLesson($lessonId: ID!, $input: CompleteLessonInput) { completeLesson(lessonId: $lessonId, input: $input) { ${COURSE_PROGRESS} } }` },
  { method: 'post', path: '/progress/lessons/:lessonId/quiz', status: 200, summary: "Submit a lesson's quiz answers; scored on the server", operation: 'mutation SubmitQuiz($lessonId: ID!, $input: QuizAnswersInput!) { submitQuiz(lessonId: $lessonId, input: $input) { lessonId score correct total attempt results { correct correctIndex explanation { en vi } } } }' },
  { method: 'get', path: '/progress/me', status: 200, summary: "The caller's streak, time spent and progress per course", operation: `query MyProgress { myProgress { ${OVERVIEW} } }` },
  { method: 'get', path: '/progress/courses/:courseId', status: 200, summary: 'Progress in one course', operation: `query CourseProgress($courseId: ID!) { courseProgress(courseId: $courseId) { ${COURSE_PROGRESS} } }` },

  { method: 'get', path: '/certificates', status: 200, summary: "The caller's certificates", operation: `query MyCertificates { myCertificates { ${CERTIFICATE} } }`, body: { wrap: 'items' } },
  { method: 'get', path: '/certificates/verify/:code', status: 200, summary: 'Check a certificate by its code (public: name, course, date)', operation: `query VerifyCertificate($code: String!) { verifyCertificate(code: $code) { code learnerName courseTitle { ${TEXT} } issuedAt } }` },
  { method: 'get', path: '/certificates/:id', status: 200, summary: 'One certificate (its PDF: /certificates/:id/pdf)', operation: `query Certificate($id: ID!) { certificate(id: $id) { ${CERTIFICATE} } }` },

  { method: 'get', path: '/guardian/dashboard', status: 200, summary: "Every linked learner's progress and certificates", operation: `query GuardianDashboard { guardianDashboard { learner { ${LEARNER} } progress { ${OVERVIEW} } certificates { ${CERTIFICATE} } } }`, body: { wrap: 'items' } },
  { method: 'get', path: '/guardian/learners/:learnerId/progress', status: 200, summary: "A linked learner's progress", operation: `query LearnerProgress($learnerId: ID!) { learnerProgress(learnerId: $learnerId) { ${OVERVIEW} } }` },
  { method: 'get', path: '/guardian/learners/:learnerId/courses', status: 200, summary: "A linked learner's courses", operation: `query LearnerCourses($learnerId: ID!) { learnerCourses(learnerId: $learnerId) { ${ENROLLMENT} } }`, body: { wrap: 'items' } },
  { method: 'get', path: '/guardian/learners/:learnerId/certificates', status: 200, summary: "A linked learner's certificates", operation: `query LearnerCertificates($learnerId: ID!) { learnerCertificates(learnerId: $learnerId) { ${CERTIFICATE} } }`, body: { wrap: 'items' } },

  { method: 'post', path: '/factory/generate', status: 202, summary: 'Start generating a course (admins and content admins); the five stages run in the background', operation: `mutation GenerateCourse($input: GenerateCourseInput!) { generateCourse(input: $input) { ${GENERATION} } }` },
  { method: 'get', path: '/factory/generations', status: 200, summary: 'Course generations, newest first, with their stages but not their outputs (admins and content admins)', operation: `query FactoryGenerations($first: Int, $after: String) { factoryGenerations(first: $first, after: $after) { edges { cursor node { ${GENERATION_SUMMARY} } } pageInfo { hasNextPage endCursor } } }`, body: 'list' },
  { method: 'get', path: '/factory/generations/:id', status: 200, summary: "A generation's status, its stages' outputs, its lessons and their safety findings", operation: `query FactoryGeneration($id: ID!) { factoryGeneration(id: $id) { ${GENERATION} lessons { ${GENERATED_LESSON} } } }` },
  { method: 'post', path: '/factory/generations/:id/approve', status: 200, summary: 'Approve: publishes the course (only from awaiting_approval; a second call answers the same)', operation: `mutation ApproveGeneration($id: ID!) { approveGeneration(id: $id) { ${GENERATION} } }` },
  { method: 'post', path: '/factory/generations/:id/reject', status: 200, summary: 'Reject a generation awaiting approval, flagged or failed', operation: `mutation RejectGeneration($id: ID!) { rejectGeneration(id: $id) { ${GENERATION} } }` },
  { method: 'post', path: '/factory/generations/:id/retry', status: 200, summary: 'Run a failed generation again from the stage that failed', operation: `mutation RetryGeneration($id: ID!) { retryGeneration(id: $id) { ${GENERATION} } }` },
  { method: 'post', path: '/factory/generations/:id/regenerate', status: 200, summary: 'Write the flagged lessons of a flagged generation again, then check them again', operation: `mutation RegenerateFlaggedLessons($id: ID!) { regenerateFlaggedLessons(id: $id) { ${GENERATION} } }` },
];
