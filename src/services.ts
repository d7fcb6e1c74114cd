import type { EntityManager } from '@mikro-orm/postgresql';
import { AdminService } from './admin/admin.service';
import { AuthService } from './auth/auth.service';
import { HealthService } from './health/health.service';
import { NotificationsService } from './notifications/notifications.service';
import type { Deps } from './server/deps';

/** The services of every area for one unit of work (a request, an operation, a job). */
export function createServices(em: EntityManager, deps: Deps) {
  const auth = new AuthService(em, deps);
  return {
    auth,
    admin: new AdminService(em, auth),
    health: new HealthService(em, deps),
    notifications: new NotificationsService(em, deps),
  };
}

export type Services = ReturnType<typeof createServices>;
