import type { UnitOfWork } from '../kernel/unit-of-work';

/** The ledger accounts that name a person: what they paid, and what a creator is owed. */
const PERSONAL_ACCOUNTS = ['customer', 'payable:creator'];

/**
 * The person's ledger accounts take their pseudonym, in the erasure's transaction. The ledger's
 * trigger lets exactly this rename through (Migration20261127100000_ledger_pseudonyms): it is told
 * the pair by a setting local to this transaction, and checks that this person's erasure is
 * running. Balances (kept by trigger, not append-only) follow their account.
 */
export async function pseudonymiseLedger(uow: UnitOfWork, userId: string, pseudonym: string): Promise<void> {
  await uow.em.execute(`select set_config('ledger.erasure', ?, true)`, [`${userId} ${pseudonym}`]);
  for (const kind of PERSONAL_ACCOUNTS) {
    for (const table of ['ledger_entries', 'ledger_balances']) {
      await uow.em.execute(`update ${table} set account = ? where account = ?`, [
        `${kind}:${pseudonym}`,
        `${kind}:${userId}`,
      ]);
    }
  }
  await uow.em.execute(`select set_config('ledger.erasure', '', true)`);
}
