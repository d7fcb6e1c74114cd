import { allRowsOf } from '../kernel/personal-data';
import { defineArea } from '../kernel/area';
import { webPage } from '../kernel/web-page';
import { AdminResolver, adminNodes } from './admin.resolver';
import { adminRoutes } from './admin.routes';
import { adminRules } from './admin.rules';
import { AdminService } from './admin.service';
import { Migration20261123100000_audit_suspension } from './migrations/Migration20261123100000_audit_suspension';
import { RoleChange } from './role-change.entity';
import { Migration20261122000000_accounts_role_changes } from './migrations/Migration20261122000000_accounts_role_changes';
import { Migration20261204001200_role_change_actor_of_any_region } from './migrations/Migration20261204001200_role_change_actor_of_any_region';

declare module '../kernel/services' {
  interface Services {
    admin: AdminService;
  }
}

export const adminArea = defineArea({
  name: 'admin',
  uses: ['ai', 'audit', 'auth', 'certificates', 'courses', 'payments', 'progress'],
  entities: [RoleChange],
  resolvers: [AdminResolver],
  rules: adminRules,
  nodes: adminNodes,
  routes: adminRoutes,
  // The console: stats, users, audit, flags and contact messages through the admin API.
  http: () => webPage({ name: 'admin-console', paths: ['/admin', '/admin/'], assets: '/admin/console' }),
  migrations: [
    { name: 'Migration20261122000000_accounts_role_changes', class: Migration20261122000000_accounts_role_changes },
    { name: 'Migration20261123100000_audit_suspension', class: Migration20261123100000_audit_suspension },
    {
      name: 'Migration20261204001200_role_change_actor_of_any_region',
      class: Migration20261204001200_role_change_actor_of_any_region,
    },
  ],
  services: { admin: (uow, services) => new AdminService(uow, services) },
  personalData: {
    entities: [RoleChange],
    export: async (userId, _services, uow) => ({ roleChanges: await allRowsOf(uow, RoleChange, { user: userId }) }),
    // The changes made to the account go; those it made as an admin name its pseudonym, in every
    // region (an admin acts on accounts of any region), as the actor's key once did on update.
    erase: async (userId, pseudonym, _services, uow) => {
      await uow.em.nativeDelete(RoleChange, { user: userId });
      await uow.em.nativeUpdate(RoleChange, { actor: userId }, { actor: pseudonym });
      for (const view of uow.deps.regions.filter((other) => other.region !== uow.deps.region))
        await view.sql.query('update role_changes set actor_id = ? where actor_id = ?', [pseudonym, userId]);
    },
  },
});
