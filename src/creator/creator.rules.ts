import { allow, and, rule } from 'graphql-shield';
import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import { Role } from '../auth';
import type { Context } from '../kernel/context';
import { perProcess } from '../kernel/deps';
import { forbidden, notFound } from '../kernel/errors';
import { RateLimitedError } from '../kernel/rate-limit';
import { hasRole, isContentEditor, isSelf, throttled } from '../permissions/rules';

const isCreator = hasRole(Role.creator);

/** The caller wrote the course named by the `courseId` argument. */
const ownsCourse = and(
  isCreator,
  rule('ownsCreatorCourse', { cache: 'no_cache' })(async (_parent, args: { courseId?: string }, ctx: Context) => {
    const draft = await ctx.services.creator.findDraft(String(args.courseId ?? ''));
    if (!draft) return notFound('course');
    return draft.creator.id === (await ctx.viewer())!.id || forbidden("Only the course's creator may do this.");
  }),
);

/** RATE_LIMIT_CREATOR_MESSAGES messages an hour per creator. */
const messageLimiter = perProcess((deps) => new RateLimiterMemory({ keyPrefix: 'creator-messages', points: deps.config.RATE_LIMIT_CREATOR_MESSAGES, duration: 3600 }));

const messageThrottled = rule('creatorMessageThrottled', { cache: 'no_cache' })(async (_parent, _args, ctx: Context) => {
  const limiter = messageLimiter(ctx.uow.deps);
  try {
    await limiter.consume(`user:${ctx.auth.userId}`);
    return true;
  } catch (rejection) {
    if (!(rejection instanceof RateLimiterRes)) throw rejection;
    const retryAfter = Math.max(1, Math.ceil(rejection.msBeforeNext / 1000));
    return new RateLimitedError(retryAfter, { limit: limiter.points, remaining: 0, resetAt: Math.ceil((Date.now() + rejection.msBeforeNext) / 1000) });
  }
});

export const creatorRules = {
  Query: { creatorCourses: isCreator, creatorAnalytics: isCreator, creatorReviewQueue: isContentEditor },
  Mutation: {
    createCreatorCourse: isCreator,
    updateCreatorCourse: ownsCourse,
    addCreatorLesson: ownsCourse,
    updateCreatorLesson: ownsCourse,
    submitCreatorCourse: ownsCourse,
    approveCreatorCourse: isContentEditor,
    rejectCreatorCourse: isContentEditor,
    messageCreatorLearners: and(ownsCourse, messageThrottled),
    assistCreatorCourse: and(ownsCourse, throttled('ai')),
  },
  CreatorCourse: allow,
  CreatorLesson: allow,
  CreatorMessageReceipt: allow,
  CreatorCourseAnalytics: allow,
  Earning: allow,
  AssistResultView: allow,
  CreatorCourseConnection: allow,
  CreatorCourseEdge: allow,
  User: { createdCourses: and(isCreator, isSelf) },
};
