import type { EntityManager } from '@mikro-orm/postgresql';
import { AdminService } from './admin/admin.service';
import { AiService } from './ai/ai.service';
import { AuthService } from './auth/auth.service';
import { CertificatesService } from './certificates/certificates.service';
import { ConsentService } from './consent/consent.service';
import { CountryPolicyService } from './country-policy/country-policy.service';
import { CoursesService } from './courses/courses.service';
import { FactoryService } from './factory/factory.service';
import { GuardianService } from './guardian/guardian.service';
import { HealthService } from './health/health.service';
import { NotificationsService } from './notifications/notifications.service';
import { ProgressService } from './progress/progress.service';
import type { Deps } from './server/deps';

/** The services of every area for one unit of work (a request, an operation, a job). */
export function createServices(em: EntityManager, deps: Deps) {
  const auth = new AuthService(em, deps);
  const notifications: NotificationsService = new NotificationsService(em, deps, (learnerId) => guardian.activeGuardianIdsOf(learnerId));
  const countryPolicy = new CountryPolicyService(em);
  const guardian: GuardianService = new GuardianService(em, deps, auth, notifications);
  const consent = new ConsentService(em, auth, countryPolicy, guardian, notifications);
  const courses = new CoursesService(em);
  const certificates = new CertificatesService(em, notifications, deps.config.PUBLIC_URL);
  return {
    auth,
    admin: new AdminService(em, auth),
    health: new HealthService(em, deps),
    notifications,
    countryPolicy,
    guardian,
    consent,
    ai: new AiService(em, deps, deps.aiBackend, consent, guardian),
    courses,
    certificates,
    progress: new ProgressService(em, courses, certificates, notifications),
    factory: new FactoryService(em, deps, (tx) => new CoursesService(tx), notifications),
  };
}

export type Services = ReturnType<typeof createServices>;
