import { Arg, Args, Ctx, FieldResolver, ID, Mutation, Query, Resolver, Root } from 'type-graphql';
import { type User, UserView } from '../auth';
import { or } from 'graphql-shield';
import type { NodeSource } from '../kernel/node';
import { PageArgs, pageOf, toConnection } from '../kernel/pagination';
import { creatorRules } from './creator.rules';
import type { Context } from '../kernel/context';
import { LessonInput, lessonOf, presentLessonBody } from '../courses';
import type { CreatorCourse, CreatorLesson } from './creator.entity';
import { assist } from './creator.assist';
import {
  AssistInput,
  AssistResultView,
  CreatorCourseAnalytics,
  CreatorCourseChangeInput,
  CreatorCourseConnection,
  CreatorCourseInput,
  CreatorCourseView,
  CreatorLessonView,
  CreatorMessageInput,
  CreatorMessageReceipt,
  ReviewInput,
} from './creator.types';
import { rejectionReasonMissing } from './creator.errors';

/** Two reads list these: a creator's own courses (creatorCourses) and, for content editors, the review queue; the read keeps each to its reader. */
const readsCreatorCourses = or(creatorRules.Query.creatorCourses, creatorRules.Query.creatorReviewQueue);

export const creatorNodes: NodeSource[] = [
  {
    type: 'CreatorCourse',
    table: 'creator_courses',
    rule: readsCreatorCourses,
    field: 'Query.creatorCourses',
    loadMany: async (ctx, ids) => {
      const drafts = await ctx.services.creator.draftsByIds((await ctx.viewer())!, ids);
      const lessons = await ctx.services.creator.lessonsOf(drafts.map((d) => d.id));
      return drafts.map((d) => present(d, lessons.get(d.id) ?? []));
    },
  },
  {
    // No root read of its own: a lesson is read within its course, by the same readers.
    type: 'CreatorLesson',
    table: 'creator_lessons',
    rule: readsCreatorCourses,
    field: 'Query.creatorCourses',
    loadMany: async (ctx, ids) =>
      (await ctx.services.creator.lessonsByIds((await ctx.viewer())!, ids)).map(presentLesson),
  },
];

/** A creator's own courses as an edge of their account. */
@Resolver(() => UserView)
export class CreatorUserEdges {
  @FieldResolver(() => CreatorCourseConnection, {
    nullable: true,
    description: 'The courses this creator writes, newest first, with their lessons (the creator themselves)',
  })
  async createdCourses(@Root() user: User, @Args(() => PageArgs) args: PageArgs, @Ctx() ctx: Context) {
    const page = pageOf(await ctx.services.creator.mine(user), args.first, args.after);
    const lessons = await ctx.services.creator.lessonsOf(page.nodes.map((d) => d.id));
    return toConnection({ ...page, nodes: page.nodes.map((d) => present(d, lessons.get(d.id) ?? [])) });
  }
}

@Resolver()
export class CreatorResolver {
  @Mutation(() => CreatorCourseView, { description: 'Starts a course draft (creators)' })
  async createCreatorCourse(
    @Arg('input', () => CreatorCourseInput, { description: 'The new course' }) input: CreatorCourseInput,
    @Ctx() ctx: Context,
  ) {
    return present(await ctx.services.creator.create((await ctx.viewer())!, input), []);
  }

  @Query(() => [CreatorCourseView], { description: "The caller's courses, newest first (creators)" })
  async creatorCourses(@Ctx() ctx: Context) {
    const drafts = await ctx.services.creator.mine((await ctx.viewer())!);
    const lessons = await ctx.services.creator.lessonsOf(drafts.map((d) => d.id));
    return drafts.map((d) => present(d, lessons.get(d.id) ?? []));
  }

  @Query(() => [CreatorCourseView], {
    description: 'Courses in review, oldest submission first, at most 100 (content admins)',
  })
  async creatorReviewQueue(@Ctx() ctx: Context) {
    const drafts = await ctx.services.creator.reviewQueue();
    const lessons = await ctx.services.creator.lessonsOf(drafts.map((d) => d.id));
    return drafts.map((d) => present(d, lessons.get(d.id) ?? []));
  }

  @Mutation(() => CreatorCourseView, { description: 'Edits a draft or rejected course (its creator)' })
  async updateCreatorCourse(
    @Arg('courseId', () => ID, { description: "The creator's course to change" }) courseId: string,
    @Arg('input', () => CreatorCourseChangeInput, { description: 'The values to change; omitted ones are kept' })
    input: CreatorCourseChangeInput,
    @Ctx() ctx: Context,
  ) {
    const draft = await ctx.services.creator.update(courseId, input as never);
    return present(draft, (await ctx.services.creator.lessonsOf([draft.id])).get(draft.id) ?? []);
  }

  @Mutation(() => CreatorLessonView, { description: 'Adds a lesson at the end (its creator)' })
  async addCreatorLesson(
    @Arg('courseId', () => ID, { description: "The creator's course to add the lesson to" }) courseId: string,
    @Arg('input', () => LessonInput, { description: 'The lesson and its quiz' }) input: LessonInput,
    @Ctx() ctx: Context,
  ) {
    return presentLesson(await ctx.services.creator.addLesson(courseId, lessonOf(input)));
  }

  @Mutation(() => CreatorLessonView, { description: "Replaces a lesson's texts and quiz (its creator)" })
  async updateCreatorLesson(
    @Arg('courseId', () => ID, { description: "The creator's course of the lesson" }) courseId: string,
    @Arg('lessonId', () => ID, { description: 'The lesson to replace' }) lessonId: string,
    @Arg('input', () => LessonInput, { description: 'The new texts and quiz of the lesson' }) input: LessonInput,
    @Ctx() ctx: Context,
  ) {
    return presentLesson(await ctx.services.creator.updateLesson(courseId, lessonId, lessonOf(input)));
  }

  @Mutation(() => CreatorCourseView, { description: 'Sends the course to review; the safety check runs (its creator)' })
  async submitCreatorCourse(
    @Arg('courseId', () => ID, { description: "The creator's course to send to review" }) courseId: string,
    @Ctx() ctx: Context,
  ) {
    const draft = await ctx.services.creator.submit(courseId);
    return present(draft, (await ctx.services.creator.lessonsOf([draft.id])).get(draft.id) ?? []);
  }

  @Mutation(() => CreatorCourseView, { description: 'Publishes a course in review (content admins); audited' })
  async approveCreatorCourse(
    @Arg('courseId', () => ID, { description: "The creator's course to publish" }) courseId: string,
    @Arg('input', () => ReviewInput, { nullable: true, description: 'An optional note from the reviewer' })
    input: ReviewInput | null,
    @Ctx() ctx: Context,
  ) {
    const draft = await ctx.services.creator.approve((await ctx.viewer())!, courseId, input?.reason);
    return present(draft, (await ctx.services.creator.lessonsOf([draft.id])).get(draft.id) ?? []);
  }

  @Mutation(() => CreatorCourseView, {
    description: 'Sends a course in review back with a reason (content admins); audited',
  })
  async rejectCreatorCourse(
    @Arg('courseId', () => ID, { description: "The creator's course to send back" }) courseId: string,
    @Arg('input', () => ReviewInput, { description: 'Why the course is sent back; the reason is required' })
    input: ReviewInput,
    @Ctx() ctx: Context,
  ) {
    if (!input.reason?.trim()) throw rejectionReasonMissing();
    const draft = await ctx.services.creator.reject((await ctx.viewer())!, courseId, input.reason);
    return present(draft, (await ctx.services.creator.lessonsOf([draft.id])).get(draft.id) ?? []);
  }

  @Mutation(() => CreatorMessageReceipt, {
    description: 'A creator_message notification to each enrolled learner (its creator; rate limited)',
  })
  async messageCreatorLearners(
    @Arg('courseId', () => ID, { description: "The creator's course whose enrolled learners get the message" })
    courseId: string,
    @Arg('input', () => CreatorMessageInput, { description: 'The title and text of the message' })
    input: CreatorMessageInput,
    @Ctx() ctx: Context,
  ) {
    return ctx.services.creator.message((await ctx.viewer())!, courseId, input.title.trim(), input.body.trim());
  }

  @Mutation(() => AssistResultView, {
    description: "A model's suggestion for the draft, safety-checked; nothing is saved (its creator)",
  })
  async assistCreatorCourse(
    @Arg('courseId', () => ID, { description: "The creator's course to help with" }) courseId: string,
    @Arg('input', () => AssistInput, { description: 'What the assistant should do, and with what' }) input: AssistInput,
    @Ctx() ctx: Context,
  ) {
    const draft = (await ctx.services.creator.findDraft(courseId))!;
    const lessons = (await ctx.services.creator.lessonsOf([draft.id])).get(draft.id) ?? [];
    return assist(ctx.uow.deps, draft, lessons, input.task, input.lessonId, input.prompt);
  }

  @Query(() => [CreatorCourseAnalytics], {
    description: "Enrollments, completions, average score and earnings per course of the caller's (creators)",
  })
  async creatorAnalytics(@Ctx() ctx: Context) {
    return ctx.services.creator.analytics((await ctx.viewer())!);
  }
}

function presentLesson(l: CreatorLesson): CreatorLessonView {
  return { ...presentLessonBody(l), quiz: l.quiz as unknown as Record<string, unknown> | null };
}

function present(d: CreatorCourse, lessons: CreatorLesson[]): CreatorCourseView {
  return {
    id: d.id,
    creatorId: d.creator.id,
    title: d.title,
    description: d.description,
    level: d.level,
    minAge: d.minAge,
    maxAge: d.maxAge,
    language: d.language,
    status: d.status,
    findings: d.findings,
    reviewReason: d.reviewReason,
    courseId: d.courseId,
    lessons: lessons.map(presentLesson),
    createdAt: d.createdAt,
    updatedAt: d.updatedAt,
  };
}
