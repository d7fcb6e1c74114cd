import { allRowsOf } from '../kernel/personal-data';
import { defineArea } from '../kernel/area';
import { webPage } from '../kernel/web-page';
import { AdminResolver, adminNodes } from './admin.resolver';
import { adminRoutes } from './admin.routes';
import { adminRules } from './admin.rules';
import { AdminService } from './admin.service';
import { AuditEntry } from './audit-entry.entity';
import { AuditService } from './audit.service';
import { Migration20261123100000_audit_suspension } from './migrations/Migration20261123100000_audit_suspension';
import { Migration20261125100000_audit_append_only } from './migrations/Migration20261125100000_audit_append_only';
import { RoleChange } from './role-change.entity';

export { AuditService } from './audit.service';

declare module '../kernel/services' {
  interface Services {
    admin: AdminService;
    audit: AuditService;
  }
}

export const adminArea = defineArea({
  name: 'admin',
  entities: [RoleChange, AuditEntry],
  resolvers: [AdminResolver],
  rules: adminRules,
  nodes: adminNodes,
  routes: adminRoutes,
  // The console: stats, users, audit, flags and contact messages through the admin API.
  http: () => webPage({ name: 'admin-console', paths: ['/admin', '/admin/'], assets: '/admin/console' }),
  migrations: [
    { name: 'Migration20261123100000_audit_suspension', class: Migration20261123100000_audit_suspension },
    { name: 'Migration20261125100000_audit_append_only', class: Migration20261125100000_audit_append_only },
  ],
  services: { admin: (uow, services) => new AdminService(uow, services.auth, services.audit), audit: (uow) => new AuditService(uow) },
  personalData: {
    entities: [RoleChange, AuditEntry],
    export: async (userId, _services, uow) => ({
      roleChanges: await allRowsOf(uow, RoleChange, { user: userId }),
      audit: await allRowsOf(uow, AuditEntry, { $or: [{ actor: userId }, { targetId: userId }] }),
    }),
    // Changes of the person's roles go. The audit trail is the platform's record of privileged
    // actions: it stays, naming the pseudonym as actor, as target and wherever its data names the
    // person (a payment's beneficiaryId, a learner's id): the old id is left nowhere to join on.
    erase: async (userId, pseudonym, _services, uow) => {
      await uow.em.nativeDelete(RoleChange, { user: userId });
      // The trail is append-only: the owner's function replaces the id as target and in the data (a uuid
      // needs no escaping in JSON text, and no other uuid contains it: a textual replace is exact).
      await uow.query('select audit_pseudonymise(?, ?)', [userId, pseudonym]);
    },
  },
});
