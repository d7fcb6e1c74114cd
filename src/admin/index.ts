import { defineArea } from '../kernel/area';
import { adminConsolePage } from './admin-page';
import { AdminResolver } from './admin.resolver';
import { adminRoutes } from './admin.routes';
import { adminRules } from './admin.rules';
import { AdminService } from './admin.service';
import { AuditEntry } from './audit-entry.entity';
import { AuditService } from './audit.service';
import { Migration20261123100000_audit_suspension } from './migrations/Migration20261123100000_audit_suspension';
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
  routes: adminRoutes,
  http: () => adminConsolePage(),
  migrations: [{ name: 'Migration20261123100000_audit_suspension', class: Migration20261123100000_audit_suspension }],
  services: { admin: (uow, services) => new AdminService(uow, services.auth, services.audit), audit: (uow) => new AuditService(uow) },
  // Audit entries are the platform's record, not the person's: an erased actor's entries stay, with no actor.
  personalData: { entities: [RoleChange] },
});
