import type { GraphQLResolveInfo } from 'graphql';
import { Ctx, FieldResolver, Info, Resolver, Root } from 'type-graphql';
import { type User, UserView } from '../auth';
import { type Course, CourseView, EnrollmentView } from '../courses';
import type { Context } from '../kernel/context';
import type { LearnerOverview } from './progress.service';
import { CourseProgressView, LearnerOverviewView } from './progress.types';

const overviewsOfQuery = new WeakMap<Context, Map<string, Promise<LearnerOverview>>>();

/**
 * A learner's overview, read once per query however many fields ask (a guardian's dashboard asks
 * for each learner's, then for each of their enrollments' progress: the same rows again). Only a
 * query keeps it: a mutation's fields may follow a change of the progress.
 */
function overviewOf(ctx: Context, info: GraphQLResolveInfo, learnerId: string): Promise<LearnerOverview> {
  if (info.operation.operation !== 'query') return ctx.services.progress.overviewOf(learnerId);
  let overviews = overviewsOfQuery.get(ctx);
  if (!overviews) overviewsOfQuery.set(ctx, (overviews = new Map()));
  let overview = overviews.get(learnerId);
  if (!overview) overviews.set(learnerId, (overview = ctx.services.progress.overviewOf(learnerId)));
  return overview;
}

@Resolver(() => UserView)
export class ProgressUserEdges {
  @FieldResolver(() => LearnerOverviewView, {
    nullable: true,
    description:
      "The account's streak, learning time and progress in each course (the account and a learner's active guardians)",
  })
  progress(@Root() user: User, @Ctx() ctx: Context, @Info() info: GraphQLResolveInfo) {
    return overviewOf(ctx, info, user.id);
  }
}

@Resolver(() => EnrollmentView)
export class EnrollmentEdges {
  @FieldResolver(() => CourseProgressView, { description: 'Lessons done, quiz average and time in this course' })
  async progress(@Root() enrollment: EnrollmentView, @Ctx() ctx: Context, @Info() info: GraphQLResolveInfo) {
    const overview = await overviewOf(ctx, info, enrollment.learnerId);
    return overview.courses.find((c) => c.courseId === enrollment.course.id)!;
  }
}

@Resolver(() => CourseView)
export class CourseProgressEdges {
  @FieldResolver(() => CourseProgressView, {
    nullable: true,
    description: "The signed-in caller's progress in the course; null unless they are enrolled",
  })
  async viewerProgress(@Root() course: Course, @Ctx() ctx: Context, @Info() info: GraphQLResolveInfo) {
    if (!ctx.auth.userId) return null;
    const overview = await overviewOf(ctx, info, ctx.auth.userId);
    return overview.courses.find((c) => c.courseId === course.id) ?? null;
  }
}
