import { rule } from 'graphql-shield';
import { paidCourseCheck } from '../entitlements';
import type { Context } from '../kernel/context';
import { aboutCallerAnd, namedRule } from '../permissions/rules';

/** The course of the lesson named by the argument `arg` (an unknown lesson is left to the resolver's 404). */
export const lessonOpen = (arg: string) =>
  namedRule(`lessonOpen(${arg})`, () =>
    aboutCallerAnd(
      [arg],
      rule(`lessonOpen(${arg})`, { cache: 'no_cache' })(
        async (_parent: unknown, args: Record<string, unknown>, ctx: Context) => {
          const lesson = typeof args[arg] === 'string' ? await ctx.services.courses.publishedLesson(args[arg]) : null;
          return paidCourseCheck(ctx, lesson?.course.id ?? null);
        },
      ),
    ),
  );
