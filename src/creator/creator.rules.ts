import { allow, and, rule } from 'graphql-shield';
import { Role } from '../auth';
import type { Context } from '../kernel/context';
import { aboutCallerAnd, hasRole, isContentEditor, isSelf, throttled } from '../permissions/rules';
import { onlyCourseCreator, unknownCourse } from './creator.errors';

const isCreator = hasRole(Role.creator);

/** The caller wrote the course named by the `courseId` argument. */
const ownsCourse = and(
  isCreator,
  aboutCallerAnd(
    ['courseId'],
    rule('ownsCreatorCourse', { cache: 'no_cache' })(async (_parent, args: { courseId?: string }, ctx: Context) => {
      const draft = await ctx.services.creator.findDraft(String(args.courseId ?? ''));
      if (!draft) return unknownCourse();
      return draft.creator.id === (await ctx.viewer())!.id || onlyCourseCreator();
    }),
  ),
);

/** RATE_LIMIT_CREATOR_MESSAGES messages an hour per creator (the area's bucket, in the shared store). */
export const CREATOR_MESSAGES_BUCKET = 'creatorMessages';
const messageThrottled = throttled(CREATOR_MESSAGES_BUCKET);

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
