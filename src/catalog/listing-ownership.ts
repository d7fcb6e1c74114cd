import type { EntityManager } from '@mikro-orm/postgresql';
import { rule } from 'graphql-shield';
import type { Context } from '../kernel/context';
import { AppError } from '../kernel/errors';
import { isId } from '../kernel/ids';
import { listsOthersCourses } from './catalog.errors';

/**
 * A creator lists only courses they wrote (`courses.created_by`): a listing of anyone else's course,
 * a platform course above all, would sell what is not theirs (and, before this check, opened it to
 * them).
 */
async function assertOwnsCourses(em: EntityManager, creatorId: string, courseIds: readonly string[] | null | undefined): Promise<void> {
  const ids = [...new Set(courseIds ?? [])];
  if (!ids.length) return;
  if (ids.some((id) => !isId(id))) throw listsOthersCourses();
  const [{ owned }] = await em.execute<{ owned: string }[]>(`select count(*) as owned from courses where id = any(string_to_array(?, ',')::uuid[]) and created_by_id = ?`, [ids.join(','), creatorId]);
  if (Number(owned) !== ids.length) throw listsOthersCourses();
}

/**
 * The rule of `submitListing` (after the creator role): a permission rule, so it runs before the
 * listing's values are validated and a refusal says nothing about them. The values' shape is the
 * validation's to report; only course ids are read here.
 */
export const listsOwnCourses = rule('listsOwnCourses', { cache: 'no_cache' })(async (_parent, args: { input?: { courseIds?: unknown } }, ctx: Context) => {
  const ids = args.input?.courseIds;
  try {
    await assertOwnsCourses(ctx.em, ctx.auth.userId!, Array.isArray(ids) ? ids.map(String) : []);
    return true;
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
});
