import { accessChanged } from '../kernel/access';
import { TIER_ORDER } from '../kernel/domain';
import type { UnitOfWork } from '../kernel/unit-of-work';
import { type Tier, User } from './user.entity';

/** TIER_ORDER as an SQL array literal (the driver spreads an array parameter into a list). */
const TIERS_SQL = `array[${TIER_ORDER.map((tier) => `'${tier}'`).join(', ')}]`;

/**
 * The account's tier is the accounts area's column: other areas set it through here. The statement
 * raising it, as a common table expression of the caller's own statement (a payment's success
 * is written in one round trip); `param` adds a value and answers its placeholder. The tier only
 * rises this way: the higher of the account's and the one given.
 *
 * Both ways write SQL, which the account cache's flush listener does not see: they tell this
 * instance at commit themselves, since the database's NOTIFY may land after the next request.
 */
export function raiseTierCte(uow: UnitOfWork, param: (value: unknown) => string, userId: string, tier: Tier): string {
  accessChanged(uow, userId);
  return `tiered as (update users set tier = ${param(tier)}, updated_at = now() where id = ${param(userId)}
          and array_position(${TIERS_SQL}, tier::text) < array_position(${TIERS_SQL}, ${param(tier)}::text) returning id)`;
}

/** Sets the account's tier in the caller's transaction, and on the account already loaded in it. */
export async function setTier(uow: UnitOfWork, userId: string, tier: Tier): Promise<void> {
  const em = uow.em;
  accessChanged(uow, userId);
  await em.nativeUpdate(User, { id: userId, tier: { $ne: tier } }, { tier });
  const loaded = em.getUnitOfWork().getById<User>(User.name, userId);
  if (loaded) loaded.tier = tier;
}
