import { rule } from 'graphql-shield';
import type { Context } from '../kernel/context';
import { AppError, unauthenticated } from '../kernel/errors';
import { namedRule } from './rules';

// Paid courses open only with an entitlement (DESIGN.md 4.6). The rules live here, beside the
// other shared rules, and reach commerce and courses through the services of the request (commerce
// depends on courses, so courses' rules cannot import commerce).

const notBought = () => new AppError('forbidden', 'This course is sold: it opens once bought (a learner under 18 asks a guardian to buy it).');

async function decide(ctx: Context, courseId: string | null): Promise<true | AppError> {
  if (!courseId || !(await ctx.services.commerce.isPaidCourse(courseId))) return true;
  const viewer = ctx.auth.userId ? await ctx.viewer() : null;
  if (!viewer) return unauthenticated();
  return (await ctx.services.commerce.mayOpenCourse(viewer, courseId)) || notBought();
}

/** The course named by the argument `arg`, or (`arg` null) the course that is the field's parent (`Course.lessons`). */
export const courseOpen = (arg: string | null) =>
  namedRule(`courseOpen(${arg ?? 'parent'})`, () =>
    rule(`courseOpen(${arg ?? 'parent'})`, { cache: 'no_cache' })(async (parent: { id?: string } | undefined, args: Record<string, unknown>, ctx: Context) =>
      decide(ctx, arg ? (typeof args[arg] === 'string' ? args[arg] : null) : (parent?.id ?? null)),
    ),
  );

/** The course of the lesson named by the argument `arg` (an unknown lesson is left to the resolver's 404). */
export const lessonOpen = (arg: string) =>
  namedRule(`lessonOpen(${arg})`, () =>
    rule(`lessonOpen(${arg})`, { cache: 'no_cache' })(async (_parent: unknown, args: Record<string, unknown>, ctx: Context) => {
      const lesson = typeof args[arg] === 'string' ? await ctx.services.courses.lesson(args[arg]).catch(() => null) : null;
      return decide(ctx, lesson?.course.id ?? null);
    }),
  );
