import { defineArea } from '../kernel/area';
import { Certificate } from './certificate.entity';
import { certificatePdfRouter } from './certificate-pdf.route';
import { CertificatesResolver } from './certificates.resolver';
import { certificatesRoutes } from './certificates.routes';
import { certificatesRules } from './certificates.rules';
import { CertificatesService } from './certificates.service';

export { presentCertificate } from './certificates.resolver';
export { CertificateView } from './certificates.types';
export type { CertificatesService } from './certificates.service';

declare module '../kernel/services' {
  interface Services {
    certificates: CertificatesService;
  }
}

export const certificatesArea = defineArea({
  name: 'certificates',
  entities: [Certificate],
  resolvers: [CertificatesResolver],
  rules: certificatesRules,
  routes: certificatesRoutes,
  http: (_deps, context) => certificatePdfRouter(context),
  services: { certificates: (uow, services) => new CertificatesService(uow, services.notifications, uow.deps.config.PUBLIC_URL) },
  personalData: { entities: [Certificate] },
});
