import { wrap } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { User } from './user.entity';

/**
 * The accounts whose ids another area's statement `idsSql` selects, as entities, in its order
 * (its first column is the id, its second the order): one statement, whose SQL on the accounts
 * table is this area's. The guardian dashboard reads its learners so, whatever their number
 * An account the unit of work holds already is kept as it is, as find would.
 */
export async function accountsAmong(em: EntityManager, idsSql: string, params: unknown[]): Promise<User[]> {
  const rows = await em.execute<Record<string, unknown>[]>(
    `select u.* from (${idsSql}) as among(id, position) inner join users as u on u.id = among.id order by among.position asc`,
    params,
  );
  return rows.map((row) => {
    const held = em.getUnitOfWork().getById<User>(User.name, row.id as string);
    return held && wrap(held).isInitialized() ? held : em.map(User, row);
  });
}
