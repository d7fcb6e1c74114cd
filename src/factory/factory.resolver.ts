import { Arg, Args, Ctx, FieldResolver, ID, Mutation, Query, Resolver, Root, Subscription } from 'type-graphql';
import type { Context } from '../kernel/context';
import type { NodeSource } from '../kernel/node';
import { PageArgs, toConnection } from '../kernel/pagination';
import { factoryRules } from './factory.rules';
import { GENERATION_STATUS_CHANGED } from './factory.service';
import { GenerateCourseInput, GeneratedLessonView, GenerationConnection, GenerationView } from './factory.types';
import type { CourseGeneration } from './generation.entity';

export function presentGeneration(g: CourseGeneration): GenerationView {
  return {
    id: g.id,
    topic: g.topic,
    level: g.level,
    ageRange: g.ageRange(),
    lessonCount: g.lessonCount,
    status: g.status,
    currentStage: g.currentStage,
    stages: g.stages.getItems(),
    progress: g.progress,
    courseId: g.courseId,
    error: g.error,
    requestedById: g.requestedBy.id,
    decidedById: g.decidedBy?.id ?? null,
    decidedAt: g.decidedAt,
    createdAt: g.createdAt,
    updatedAt: g.updatedAt,
  };
}

const me = (ctx: Context) => ctx.auth.userId!;

export const factoryNodes: NodeSource[] = [
  {
    type: 'CourseGeneration',
    table: 'course_generations',
    rule: factoryRules.Query.factoryGeneration,
    field: 'Query.factoryGeneration',
    loadMany: async (ctx, ids) => (await ctx.services.factory.byIds(ids)).map(presentGeneration),
  },
];

@Resolver(() => GenerationView)
export class FactoryResolver {
  @Query(() => GenerationConnection, { description: 'Course generations, newest first (admins and content admins)' })
  async factoryGenerations(@Args(() => PageArgs) args: PageArgs, @Ctx() ctx: Context) {
    const page = await ctx.services.factory.list(args.first, args.after);
    return toConnection({ ...page, nodes: page.nodes.map(presentGeneration) });
  }

  @Query(() => GenerationView, { description: 'One course generation, with its stages (admins and content admins)' })
  async factoryGeneration(
    @Arg('id', () => ID, { description: "The generation's global id" }) id: string,
    @Ctx() ctx: Context,
  ) {
    return presentGeneration(await ctx.services.factory.find(id));
  }

  @Mutation(() => GenerationView, { description: 'Starts the five-stage pipeline; the generation is queued' })
  async generateCourse(
    @Arg('input', () => GenerateCourseInput, { description: 'What course to generate' }) input: GenerateCourseInput,
    @Ctx() ctx: Context,
  ) {
    return presentGeneration(await ctx.services.factory.start(input, me(ctx)));
  }

  @Mutation(() => GenerationView, {
    description: 'Publishes the generated course; only from awaiting_approval (an approved one is CONFLICT)',
  })
  async approveGeneration(
    @Arg('id', () => ID, { description: "The generation's global id" }) id: string,
    @Ctx() ctx: Context,
  ) {
    return presentGeneration(await ctx.services.factory.approve(id, me(ctx)));
  }

  @Mutation(() => GenerationView, { description: 'From awaiting_approval, flagged or failed' })
  async rejectGeneration(
    @Arg('id', () => ID, { description: "The generation's global id" }) id: string,
    @Ctx() ctx: Context,
  ) {
    return presentGeneration(await ctx.services.factory.reject(id, me(ctx)));
  }

  @Mutation(() => GenerationView, { description: 'A failed generation goes on from the stage that failed' })
  async retryGeneration(
    @Arg('id', () => ID, { description: "The generation's global id" }) id: string,
    @Ctx() ctx: Context,
  ) {
    return presentGeneration(await ctx.services.factory.retry(id, me(ctx)));
  }

  @Mutation(() => GenerationView, {
    description: 'A flagged generation writes its flagged lessons again and checks them again',
  })
  async regenerateFlaggedLessons(
    @Arg('id', () => ID, { description: "The generation's global id" }) id: string,
    @Ctx() ctx: Context,
  ) {
    return presentGeneration(await ctx.services.factory.regenerateFlagged(id));
  }

  @FieldResolver(() => [GeneratedLessonView], { description: 'The lessons as far as the pipeline has written them' })
  lessons(@Root() generation: GenerationView, @Ctx() ctx: Context) {
    return ctx.services.factory.lessons(generation.id);
  }

  @Subscription(() => GenerationView, {
    description: 'The generation after each change of status, stage or progress (admins and content admins)',
    topics: GENERATION_STATUS_CHANGED,
    topicId: ({ args }) => args.id,
  })
  async generationStatusChanged(
    @Arg('id', () => ID, { description: 'The global id of the generation to follow' }) id: string,
    @Ctx() ctx: Context,
  ) {
    ctx.em.clear();
    return presentGeneration(await ctx.services.factory.find(id));
  }
}
