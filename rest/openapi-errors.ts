import { declaredReasons, errorStatus, internalErrorBody } from '../src/kernel/errors';
import { badPercentEncoding, methodNotAllowed } from '../src/kernel/http.errors';
import { type JsonSchema, objectOf, ref } from './openapi-shapes';

/** docs/errors.md's codes with their statuses; 405 and 415 are answered before any operation runs. */
export const codeStatus: Record<string, number> = {
  ...errorStatus,
  method_not_allowed: 405,
  unsupported_media_type: 415,
};

interface Example {
  error: string;
  message: string;
  reason?: string;
  retryAfter?: number;
  details?: { field: string; message: string }[];
}

const says = (error: string, message: string, extra: Partial<Example> = {}): Example => ({ error, message, ...extra });

/** What the service answers for a code wherever it applies (its own words: src/kernel, src/server, src/permissions). */
const common: Record<string, Example> = {
  invalid_json: says('invalid_json', 'The request body is not valid JSON.'),
  unauthenticated: says('unauthenticated', 'Sign in to do this: the access token is missing, invalid or expired.'),
  forbidden: says('forbidden', 'You are not allowed to do this.'),
  account_suspended: says(
    'account_suspended',
    'This account is suspended. Contact the platform to have it reactivated.',
  ),
  account_deletion_pending: says(
    'account_deletion_pending',
    'This account is scheduled for erasure: until then it may only be read, and the erasure canceled.',
  ),
  payload_too_large: says('payload_too_large', 'The request body is too large.'),
  unsupported_media_type: says(
    'unsupported_media_type',
    'The request body must be JSON, sent with Content-Type: application/json.',
  ),
  rate_limited: says('rate_limited', 'Too many requests. Try again in 42 seconds.', { retryAfter: 42 }),
  internal_error: says(internalErrorBody.error, internalErrorBody.message),
  upstream_unavailable: says('upstream_unavailable', 'The database cannot be reached. Try again later.', {
    reason: 'database_unavailable',
  }),
};

const conflict = (message: string, reason: string) => says('conflict', message, { reason });
const limitReached = (message: string, reason: string) => says('limit_reached', message, { reason });
const regionMismatch = conflict(
  "The guardian's account and the learner's are kept in different regions: make the guardian's account in the learner's country.",
  'region_mismatch',
);
const schoolRegionMismatch = conflict(
  "The account is kept in another region than the school's: its members have accounts made in the school's country.",
  'school_region_mismatch',
);
const aiErrors = [
  says('quota_exceeded', "Today's AI messages are used up (20). They come back at midnight UTC.", { retryAfter: 3600 }),
  says('upstream_error', 'The AI service answered with an error. Try again later.', { reason: 'ai_service_error' }),
  says('upstream_unavailable', 'The AI service cannot be reached. Try again later.', { reason: 'ai_unreachable' }),
];
const modelErrors = [
  says('upstream_error', 'The model provider could not help just now. Try again later.', {
    reason: 'model_provider_failed',
  }),
];

/**
 * The answers particular to an operation, beside those every operation of its kind has: its
 * conflicts, and the 401/403 of the public ones that check credentials (messages of the services).
 */
const particular: Record<string, Example[]> = {
  Signup: [conflict('An account with this e-mail address exists already.', 'email_taken')],
  Login: [
    says('unauthenticated', 'The e-mail address or the password is wrong.', { reason: 'wrong_credentials' }),
    common.account_suspended,
  ],
  Refresh: [
    says('unauthenticated', 'This refresh token was used already; the session has ended. Sign in again.', {
      reason: 'refresh_token_reused',
    }),
    common.account_suspended,
  ],
  SuspendUser: [conflict('You cannot suspend your own account.', 'cannot_suspend_self')],
  ReactivateUser: [conflict('This account is not suspended.', 'account_not_suspended')],
  RemoveRole: [conflict('This is the last admin; grant the role to somebody else first.', 'last_admin')],
  GrantRole: [conflict('This is the last admin; grant the role to somebody else first.', 'last_admin')],
  Course: [
    common.unauthenticated,
    says('forbidden', 'This course is sold: it opens once bought (a learner under 18 asks a guardian to buy it).', {
      reason: 'course_not_bought',
    }),
  ],
  Enroll: [conflict('You are enrolled in this course already.', 'already_enrolled')],
  PublishCourse: [conflict('A course needs at least one lesson to be published.', 'course_has_no_lessons')],
  SubmitQuiz: [limitReached('A quiz may be attempted at most 3 times.', 'quiz_attempt_limit_reached')],
  UpdatePortfolio: [conflict('This handle is taken.', 'handle_taken')],
  JoinClass: [
    says('not_found', 'No such class with this code.'),
    conflict('You are in this class already.', 'already_in_class'),
    schoolRegionMismatch,
  ],
  SetSchoolMember: [schoolRegionMismatch],
  AssignClassCourse: [conflict('The course is assigned to this class already.', 'course_already_assigned')],
  ResolveContactMessage: [conflict('This message is resolved already.', 'message_already_resolved')],
  PublishProduct: [conflict('A listing is published by its review.', 'listing_published_by_review')],
  ArchiveProduct: [conflict('A listing is published by its review.', 'listing_published_by_review')],
  ApproveListing: [conflict('The listing is published, not in review.', 'listing_not_in_review')],
  RejectListing: [conflict('The listing is published, not in review.', 'listing_not_in_review')],
  Checkout: [
    says('not_found', 'No such product.'),
    conflict('This Idempotency-Key was used with another request.', 'idempotency_key_reused'),
    says('upstream_error', 'stripe did not accept the checkout; try again or choose another provider.', {
      reason: 'checkout_not_accepted',
    }),
  ],
  ApprovePurchaseRequest: [conflict('The request is approved already.', 'purchase_request_decided')],
  DeclinePurchaseRequest: [conflict('The request is declined already.', 'purchase_request_decided')],
  RevokeEntitlement: [conflict('The entitlement is revoked already.', 'entitlement_not_active')],
  RequestRefund: [conflict('A failed payment cannot be refunded.', 'payment_not_refundable')],
  ApproveRefund: [conflict('The refund is processing already.', 'refund_decided')],
  RejectRefund: [conflict('The refund is rejected already.', 'refund_decided')],
  RequestDataExport: [conflict('An export of this account is already being prepared.', 'export_already_running')],
  RequestAccountDeletion: [conflict('This account is already scheduled for erasure.', 'erasure_already_scheduled')],
  CancelGdprRequest: [conflict('Only an erasure still in its grace period can be canceled.', 'erasure_not_cancelable')],
  UpdateCreatorCourse: [conflict('The course is in_review; it can no longer be edited.', 'course_not_editable')],
  AddCreatorLesson: [conflict('A course has at most 30 lessons.', 'course_lesson_limit_reached')],
  UpdateCreatorLesson: [conflict('The course is in_review; it can no longer be edited.', 'course_not_editable')],
  SubmitCreatorCourse: [conflict('The course is in_review; it can no longer be edited.', 'course_not_editable')],
  ApproveCreatorCourse: [conflict('The course is draft, not in review.', 'course_not_in_review')],
  RejectCreatorCourse: [conflict('The course is draft, not in review.', 'course_not_in_review')],
  MessageCreatorLearners: [conflict('Only a published course has learners to write to.', 'course_not_published')],
  AssistCreatorCourse: modelErrors,
  GenerateCourse: [
    limitReached(
      'At most 3 of your generations may be queued or running at once; wait for one to finish.',
      'active_generation_limit_reached',
    ),
  ],
  ApproveGeneration: [
    conflict(
      'This generation is already approved; its course is 0b7e6a9c-3f0e-4c55-9d57-2f3c1e8a4b10.',
      'generation_already_approved',
    ),
  ],
  RejectGeneration: [
    conflict('A generation that is approved cannot become rejected.', 'generation_transition_not_allowed'),
  ],
  RetryGeneration: [
    conflict('A generation that is approved cannot become queued.', 'generation_transition_not_allowed'),
  ],
  RegenerateFlaggedLessons: [
    conflict('No lesson is flagged: the course-level findings need a new generation.', 'no_lesson_flagged'),
  ],
  DeclareLearner: [
    conflict('You have a link to this learner already.', 'link_exists'),
    regionMismatch,
    limitReached('A guardian may have at most 5 linked learners; revoke a link first.', 'guardian_link_limit_reached'),
  ],
  AddChild: [
    limitReached('A guardian may have at most 5 linked learners; revoke a link first.', 'guardian_link_limit_reached'),
    regionMismatch,
  ],
  ApproveGuardianLink: [
    conflict('The link is active; only a pending link can be approved.', 'link_not_pending'),
    regionMismatch,
  ],
  RevokeGuardianLink: [conflict('The link is revoked already.', 'link_already_revoked')],
  ConfirmGuardianLink: [
    says(
      'email_not_verified',
      "The learner's account must verify its e-mail address first; then follow this link again.",
      { reason: 'learner_email_not_verified' },
    ),
    regionMismatch,
  ],
  AiChat: aiErrors,
  RequestHint: aiErrors,
  Readiness: [
    says('upstream_unavailable', 'Not ready: the outbox relay is not running.', { reason: 'outbox_relay_stopped' }),
  ],
  EmailHealth: [says('upstream_unavailable', 'The mail outbox is not working.', { reason: 'mail_transport_down' })],
};

export interface OperationFacts {
  id: string;
  isPublic: boolean;
  /** Whether its request's body is read (every method but GET, a body the operation takes or not): invalid_json, 413, 415. */
  readsBody: boolean;
  /** Whether it names a resource by id (in its path, query or body): it may answer not_found. */
  namesResource: boolean;
  /** The noun of its path (`/courses/:id` is a course), for the not_found message. */
  noun: string;
  /** A field of its input, for the validation_failed example. */
  field: string;
  /** The area that lists it: its responses list that area's reasons and the shared ones. */
  area?: string;
}

/** What any request may meet, whatever it asks: the rate limit, a failure of ours. */
const frontErrors = [common.rate_limited, common.internal_error, common.upstream_unavailable];

/** Every error the operation answers, grouped by status, each status with a real example of each code. */
export function errorResponses(op: OperationFacts): Record<string, JsonSchema> {
  const examples: Example[] = [
    ...(particular[op.id] ?? []),
    says('validation_failed', 'The request is invalid.', { details: [{ field: op.field, message: 'is required' }] }),
  ];
  if (op.readsBody) examples.push(common.invalid_json, common.payload_too_large, common.unsupported_media_type);
  if (!op.isPublic)
    examples.push(common.unauthenticated, common.forbidden, common.account_suspended, common.account_deletion_pending);
  // A public operation still refuses a token sent with it that is ended or whose account may not act.
  else
    examples.push(
      says('unauthenticated', 'The session of this access token has ended; sign in again.', {
        reason: 'session_ended',
      }),
      common.account_suspended,
      common.account_deletion_pending,
    );
  if (op.namesResource) examples.push(says('not_found', `No such ${op.noun}.`));
  return responsesOf([...examples, ...frontErrors], op.area);
}

/** The errors of a path served without an operation (`GET /`): those every request may meet. */
export function frontErrorResponses(): Record<string, JsonSchema> {
  return responsesOf([badPercentEncoding('query').toBody(), ...frontErrors]);
}

/**
 * A known path called with a method it does not take. OpenAPI describes responses per operation,
 * and this answers no operation of the document (it answers the methods the path lacks), so it is
 * declared once here and named by the document's description, not listed under operations that
 * never answer it.
 */
export function methodNotAllowedResponse(): JsonSchema {
  return {
    description: 'method_not_allowed: the path takes other methods, which `Allow` lists (HEAD with GET)',
    headers: {
      Allow: {
        description: 'The methods the path takes, such as `GET, HEAD`',
        required: true,
        schema: { type: 'string' },
      },
    },
    ...errorContent(['method_not_allowed'], [methodNotAllowed().toBody()]),
  };
}

/** Where the reasons of every operation are declared, beside its own area's: the kernel's steps and the shared rules. */
const sharedReasons = new Set(['kernel', 'permissions']);

/**
 * The reasons listed for an answer of these codes: those of its examples, and those of the codes
 * that the operation's area declares or that are shared by all. A list to read, not a closed
 * one: an operation may pass on a reason of an area it calls (a consent its rule asks for).
 */
function reasonsOf(examples: Example[], area: string | undefined): string[] {
  const codes = examples.map((e) => e.error);
  const declared = [...declaredReasons]
    .filter(([, d]) => codes.includes(d.kind) && (d.area === area || sharedReasons.has(d.area)))
    .map(([name]) => name);
  const shown = examples.flatMap((e) => (e.reason ? [e.reason] : []));
  return [...new Set([...shown, ...declared])].sort();
}

/** Responses by status from examples: the first example of a code stays (an operation's own words before the common ones). */
function responsesOf(examples: Example[], area?: string): Record<string, JsonSchema> {
  const byStatus = new Map<number, Example[]>();
  for (const example of examples) {
    const status = codeStatus[example.error];
    const same = byStatus.get(status) ?? [];
    if (!same.some((e) => e.error === example.error)) byStatus.set(status, [...same, example]);
  }
  const responses: Record<string, JsonSchema> = {};
  for (const [status, list] of [...byStatus].sort(([a], [b]) => a - b)) {
    const codes = Object.keys(codeStatus).filter((code) => codeStatus[code] === status);
    const reasons = reasonsOf(list, area);
    responses[status] = {
      description: list.map((e) => e.error).join(', ') + (reasons.length ? `; reasons: ${reasons.join(', ')}` : ''),
      ...(status === 429
        ? { headers: rateLimitHeaders(true) }
        : status === 401
          ? { headers: { 'WWW-Authenticate': { $ref: '#/components/headers/WWW-Authenticate' } } }
          : {}),
      ...errorContent(codes, list, reasons),
    };
  }
  return responses;
}

/** The error object of some codes (only those: a 401 is never validation_failed) and reasons, with an example of each code. */
function errorContent(codes: string[], examples: Example[], reasons: string[] = []): JsonSchema {
  const properties = {
    error: { enum: codes },
    ...(reasons.length ? { reason: { type: 'string', examples: reasons } } : {}),
  };
  return {
    content: {
      'application/json': {
        schema: { allOf: [ref('Error'), { type: 'object', properties }] },
        examples: Object.fromEntries(examples.map((e) => [e.error, { summary: e.message, value: e }])),
      },
    },
  };
}

/** The X-RateLimit-* headers of every counted answer; on a 429 with Retry-After. */
export function rateLimitHeaders(refused: boolean): JsonSchema {
  const names = [
    'X-RateLimit-Limit',
    'X-RateLimit-Remaining',
    'X-RateLimit-Reset',
    ...(refused ? ['Retry-After'] : []),
  ];
  return Object.fromEntries(names.map((name) => [name, { $ref: `#/components/headers/${name}` }]));
}

const integerHeader = (description: string, required = false): JsonSchema => ({
  description,
  required,
  schema: { type: 'integer' },
});

export const headers: Record<string, JsonSchema> = {
  'X-RateLimit-Limit': integerHeader('Requests allowed in the window of the tightest bucket this request counts in'),
  'X-RateLimit-Remaining': integerHeader('Requests left in that window'),
  'X-RateLimit-Reset': integerHeader('When that window ends, in seconds since the epoch'),
  'Retry-After': integerHeader('Seconds to wait before trying again', true),
  'WWW-Authenticate': { description: 'The authentication scheme to use: `Bearer`', schema: { type: 'string' } },
};

export function errorSchema(): JsonSchema {
  return objectOf(
    {
      error: {
        type: 'string',
        enum: Object.keys(codeStatus),
        description: 'The code of docs/errors.md; the HTTP status follows from it',
      },
      message: { type: 'string' },
      reason: {
        type: 'string',
        description:
          'Where the service tells apart errors of one code: a stable snake_case name (such as `email_taken` of a conflict). Each response lists the reasons of its operation, and an operation may pass on one of an area it calls',
      },
      retryAfter: { type: 'integer', description: 'Seconds to wait (rate_limited, quota_exceeded)' },
      details: {
        type: 'array',
        description: 'Which fields are invalid (validation_failed)',
        items: objectOf({ field: { type: 'string' }, message: { type: 'string' } }, ['field', 'message']),
      },
    },
    ['error', 'message'],
  );
}
