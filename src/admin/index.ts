import { defineArea } from '../kernel/area';
import { AdminResolver } from './admin.resolver';
import { adminRoutes } from './admin.routes';
import { adminRules } from './admin.rules';
import { AdminService } from './admin.service';
import { RoleChange } from './role-change.entity';

declare module '../kernel/services' {
  interface Services {
    admin: AdminService;
  }
}

export const adminArea = defineArea({
  name: 'admin',
  entities: [RoleChange],
  resolvers: [AdminResolver],
  rules: adminRules,
  routes: adminRoutes,
  services: { admin: (uow, services) => new AdminService(uow, services.auth) },
  personalData: { entities: [RoleChange] },
});
