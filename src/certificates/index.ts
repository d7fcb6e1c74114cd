import { defineArea } from '../kernel/area';
import { Certificate } from './certificate.entity';
import { certificatePdfRouter } from './certificate-pdf.route';
import { CertificatesResolver, CertificatesUserEdges, certificatesNodes } from './certificates.resolver';
import { certificatesRoutes } from './certificates.routes';
import { certificatesRules } from './certificates.rules';
import { CertificatesService } from './certificates.service';
import { Migration20261122040000_learning_certificates } from './migrations/Migration20261122040000_learning_certificates';

export { presentCertificate } from './certificates.resolver';
export { CertificateView } from './certificates.types';
export type { CertificatesService, CertificateSummary } from './certificates.service';

declare module '../kernel/events' {
  interface DomainEvents {
    /** A learner earned a certificate (raised once per learner and course, after its commit). */
    'certificate.issued': {
      certificateId: string;
      code: string;
      learnerId: string;
      learnerName: string;
      courseId: string;
      courseTitle: { en: string; vi: string };
    };
  }
}

declare module '../kernel/services' {
  interface Services {
    certificates: CertificatesService;
  }
}

export const certificatesArea = defineArea({
  name: 'certificates',
  uses: ['auth', 'courses', 'guardian'],
  migrations: [
    { name: 'Migration20261122040000_learning_certificates', class: Migration20261122040000_learning_certificates },
  ],
  entities: [Certificate],
  resolvers: [CertificatesResolver, CertificatesUserEdges],
  nodes: certificatesNodes,
  rules: certificatesRules,
  routes: certificatesRoutes,
  http: (_deps, context) => certificatePdfRouter(context),
  services: { certificates: (uow) => new CertificatesService(uow, uow.deps.config.PUBLIC_URL) },
  personalData: {
    entities: [Certificate],
    // The PDFs go into the archive beside this file (the export job asks for them).
    export: async (userId, services) => ({
      certificates: (await services.certificates.listOf([userId])).map((c) => ({
        id: c.id,
        code: c.code,
        courseId: c.course.id,
        averageScore: c.averageScore,
        issuedAt: c.issuedAt,
      })),
    }),
    erase: async (userId, _pseudonym, _services, uow) => {
      await uow.em.nativeDelete(Certificate, { learner: userId });
    },
  },
});
