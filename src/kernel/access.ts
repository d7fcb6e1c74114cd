import type { UnitOfWork } from './unit-of-work';

/**
 * Sent with a person's id (or `*` for everybody) when something that decides what they may do
 * changed: their account, a consent, a guardian's setting, a country policy. The database sends it
 * to every instance (each area's triggers on its own tables, through the foundation's
 * `access_changed_notify`); caches of decisions drop their entry.
 */
export const ACCESS_CHANGED = 'accessChanged';

/**
 * After commit, tells this instance at once, before the answer leaves: the database's NOTIFY
 * reaches it a moment later, and the very next request must not be decided by the old state.
 */
export function accessChanged(uow: UnitOfWork, personId: string): void {
  uow.afterCommit(() => uow.deps.pubSub.local(ACCESS_CHANGED, personId));
}
