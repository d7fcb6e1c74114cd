import { rule } from 'graphql-shield';
import type { Context } from '../kernel/context';
import { type AppError, unauthenticated } from '../kernel/errors';
import { aboutCallerAnd, namedRule } from '../permissions/rules';
import { courseNotBought } from './entitlements.errors';

// Paid courses open only with an entitlement (docs/commerce.md). Courses and progress put these
// rules on their fields; the lesson rule, which needs to know a lesson's course, is courses' own.

/** Whether the caller may open the course: true, or the refusal (401 without a token, 403 not bought). */
export async function paidCourseCheck(ctx: Context, courseId: string | null): Promise<true | AppError> {
  if (!courseId || !(await ctx.services.entitlements.isPaidCourse(courseId))) return true;
  const viewer = ctx.auth.userId ? await ctx.viewer() : null;
  if (!viewer) return unauthenticated();
  return (await ctx.services.entitlements.mayOpenCourse(viewer, courseId)) || courseNotBought();
}

/** Those of these courses the caller may not open (paid and not bought), for lists that leave their content out. */
export async function closedCourses(ctx: Context, courseIds: string[]): Promise<string[]> {
  return ctx.services.entitlements.closedTo(ctx.auth.userId ? await ctx.viewer() : null, courseIds);
}

/** The course named by the argument `arg`, or (`arg` null) the course that is the field's parent (`Course.lessons`). */
export const courseOpen = (arg: string | null) =>
  namedRule(`courseOpen(${arg ?? 'parent'})`, () => {
    const open = rule(`courseOpen(${arg ?? 'parent'})`, { cache: 'no_cache' })(
      async (parent: { id?: string } | undefined, args: Record<string, unknown>, ctx: Context) =>
        paidCourseCheck(ctx, arg ? (typeof args[arg] === 'string' ? args[arg] : null) : (parent?.id ?? null)),
    );
    // The parent's course is known only at execution; a course named by an argument is known before.
    return arg ? aboutCallerAnd([arg], open) : open;
  });
