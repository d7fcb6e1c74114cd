import { rule } from 'graphql-shield';
import type { Context } from '../kernel/context';
import { isId } from '../kernel/ids';
import { listsOthersCourses } from './catalog.errors';

/**
 * A creator lists only courses they wrote (the courses area's authorship): a listing of anyone
 * else's course, a platform course above all, would sell what is not theirs (and, before this
 * check, opened it to them).
 */
async function ownsCourses(ctx: Context, creatorId: string, courseIds: readonly string[]): Promise<boolean> {
  const ids = [...new Set(courseIds)];
  if (!ids.length) return true;
  if (ids.some((id) => !isId(id))) return false;
  const authors = await ctx.services.courses.authorsOf(ids);
  return ids.every((id) => authors.get(id) === creatorId);
}

/**
 * The rule of `submitListing` (after the creator role): a permission rule, so it runs before the
 * listing's values are validated and a refusal says nothing about them. The values' shape is the
 * validation's to report; only course ids are read here.
 */
export const listsOwnCourses = rule('listsOwnCourses', { cache: 'no_cache' })(async (
  _parent,
  args: { input?: { courseIds?: unknown } },
  ctx: Context,
) => {
  const ids = args.input?.courseIds;
  return (await ownsCourses(ctx, ctx.auth.userId!, Array.isArray(ids) ? ids.map(String) : [])) || listsOthersCourses();
});
