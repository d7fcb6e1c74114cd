import { Ctx, FieldResolver, Resolver, Root } from 'type-graphql';
import { type User, UserView } from '../auth';
import { type Course, CourseView, EnrollmentView } from '../courses';
import type { Context } from '../kernel/context';
import { CourseProgressView, LearnerOverviewView } from './progress.types';

@Resolver(() => UserView)
export class ProgressUserEdges {
  @FieldResolver(() => LearnerOverviewView, { nullable: true, description: "The account's streak, learning time and progress in each course (the account and a learner's active guardians)" })
  progress(@Root() user: User, @Ctx() ctx: Context) {
    return ctx.services.progress.overviewOf(user.id);
  }
}

@Resolver(() => EnrollmentView)
export class EnrollmentEdges {
  @FieldResolver(() => CourseProgressView, { description: 'Lessons done, quiz average and time in this course' })
  async progress(@Root() enrollment: EnrollmentView, @Ctx() ctx: Context) {
    const overview = await ctx.services.progress.overviewOf(enrollment.learnerId);
    return overview.courses.find((c) => c.courseId === enrollment.course.id)!;
  }
}

@Resolver(() => CourseView)
export class CourseProgressEdges {
  @FieldResolver(() => CourseProgressView, { nullable: true, description: "The signed-in caller's progress in the course; null unless they are enrolled" })
  async viewerProgress(@Root() course: Course, @Ctx() ctx: Context) {
    if (!ctx.auth.userId) return null;
    const overview = await ctx.services.progress.overviewOf(ctx.auth.userId);
    return overview.courses.find((c) => c.courseId === course.id) ?? null;
  }
}
