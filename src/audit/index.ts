import { defineArea } from '../kernel/area';
import { allRowsOf } from '../kernel/personal-data';
import { AuditEntry } from './audit-entry.entity';
import { AuditService } from './audit.service';
import { Migration20261125100000_audit_append_only } from './migrations/Migration20261125100000_audit_append_only';
import { Migration20261201000000_audit_pseudonymise_one_account } from './migrations/Migration20261201000000_audit_pseudonymise_one_account';
import { Migration20261204001100_audit_actor_of_any_region } from './migrations/Migration20261204001100_audit_actor_of_any_region';

export { AuditEntry } from './audit-entry.entity';
export { auditEntryCte } from './audit-cte';
export type { AuditFilter, AuditRecord, AuditService } from './audit.service';

declare module '../kernel/services' {
  interface Services {
    audit: AuditService;
  }
}

/**
 * The audit trail: every area records its privileged actions here, in its own transaction. An area
 * of its own, below the others, so that any area may record without depending on the admin console
 * that reads the trail.
 */
export const auditArea = defineArea({
  name: 'audit',
  uses: ['auth'],
  entities: [AuditEntry],
  migrations: [
    { name: 'Migration20261125100000_audit_append_only', class: Migration20261125100000_audit_append_only },
    {
      name: 'Migration20261201000000_audit_pseudonymise_one_account',
      class: Migration20261201000000_audit_pseudonymise_one_account,
    },
    {
      name: 'Migration20261204001100_audit_actor_of_any_region',
      class: Migration20261204001100_audit_actor_of_any_region,
    },
  ],
  services: { audit: (uow) => new AuditService(uow) },
  personalData: {
    entities: [AuditEntry],
    export: async (userId, _services, uow) => ({
      audit: await allRowsOf(uow, AuditEntry, { $or: [{ actor: userId }, { targetId: userId }] }),
    }),
    // The audit trail is the platform's record of privileged actions: it stays, naming the pseudonym
    // as actor, as target and wherever its data names the person (a payment's beneficiaryId, a
    // learner's id): the old id is left nowhere to join on. The trail is append-only: the owner's
    // function replaces this account's id, and nothing else, as target and in the data (a uuid needs
    // no escaping in JSON text, and no other uuid contains it: a textual replace is exact).
    erase: async (userId, pseudonym, _services, uow) => {
      await uow.query('select audit_pseudonymise(?, ?)', [userId, pseudonym]);
    },
  },
});
