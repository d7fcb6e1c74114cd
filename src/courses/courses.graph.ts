import { Args, Ctx, FieldResolver, Resolver, Root } from 'type-graphql';
import { type User, UserView } from '../auth';
import type { Context } from '../kernel/context';
import type { NodeSource } from '../kernel/node';
import { lessonOpen } from './lesson-open';
import { PageArgs, pageOf, toConnection } from '../kernel/pagination';
import type { Course } from './course.entity';
import { presentEnrollment, presentLesson } from './courses.resolver';
import { coursesRules } from './courses.rules';
import { CourseView, EnrollmentConnection, EnrollmentView } from './courses.types';

@Resolver(() => UserView)
export class CoursesUserEdges {
  @FieldResolver(() => EnrollmentConnection, {
    nullable: true,
    description:
      "The courses the account is enrolled in, newest enrollment first, each with its progress (the account and a learner's active guardians)",
  })
  async enrollments(@Root() user: User, @Args(() => PageArgs) page: PageArgs, @Ctx() ctx: Context) {
    const rows = (await ctx.services.courses.enrollmentsOfLearner(user.id)).map(presentEnrollment);
    return toConnection(pageOf(rows, page.first, page.after));
  }
}

@Resolver(() => CourseView)
export class CourseEdges {
  @FieldResolver(() => EnrollmentView, {
    nullable: true,
    description: "The signed-in caller's enrollment in the course; null when they are not enrolled or not signed in",
  })
  async viewerEnrollment(@Root() course: Course, @Ctx() ctx: Context) {
    if (!ctx.auth.userId) return null;
    const enrollment = await ctx.services.courses.viewerEnrollment(ctx.auth.userId, course.id);
    return enrollment && presentEnrollment(enrollment);
  }
}

export const coursesNodes: NodeSource[] = [
  {
    type: 'Course',
    table: 'courses',
    rule: coursesRules.Query.course,
    field: 'Query.course',
    loadMany: async (ctx, ids) => ctx.services.courses.coursesByIds(await ctx.viewer(), ids),
  },
  // A lesson is its course's content: a paid course's lessons open as `Course.lessons` does (GET /courses/:id).
  {
    type: 'Lesson',
    table: 'lessons',
    rule: lessonOpen('id'),
    field: 'Query.node',
    loadMany: async (ctx, ids) => (await ctx.services.courses.lessonsByIds(ids)).map(presentLesson),
  },
  {
    type: 'Enrollment',
    table: 'enrollments',
    rule: coursesRules.Query.myCourses,
    field: 'Query.myCourses',
    loadMany: async (ctx, ids) =>
      (await ctx.services.courses.enrollmentsByIds(ctx.auth.userId!, ids)).map(presentEnrollment),
  },
];
