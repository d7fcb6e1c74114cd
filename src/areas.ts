import { adminArea } from './admin';
import { aiArea } from './ai';
import { auditArea } from './audit';
import { authArea } from './auth';
import { catalogArea } from './catalog';
import { certificatesArea } from './certificates';
import { codelabArea } from './codelab';
import { consentArea } from './consent';
import { contactArea } from './contact';
import { countryPolicyArea } from './country-policy';
import { entitlementsArea } from './entitlements';
import { creatorArea } from './creator';
import { coursesArea } from './courses';
import { factoryArea } from './factory';
import { featuresArea } from './features';
import { graphArea } from './graph';
import { guardianArea } from './guardian';
import { gdprArea } from './gdpr';
import { healthArea } from './health';
import { notificationsArea } from './notifications';
import { paymentsArea } from './payments';
import { portfolioArea } from './portfolio';
import { progressArea } from './progress';
import { projectsArea } from './projects';
import { reportsArea } from './guardian-reports';
import { refundsArea } from './refunds';
import { schoolArea } from './school';
import type { Area } from './kernel/area';

/**
 * The areas of the specification, in the order their REST paths are described. The schema, the
 * ORM, the permissions, the REST table, the job queue and the privacy operations read this list:
 * adding an area is its folder and one line here.
 */
export const areas: Area[] = [
  healthArea,
  authArea,
  auditArea,
  adminArea,
  notificationsArea,
  guardianArea,
  consentArea,
  countryPolicyArea,
  aiArea,
  coursesArea,
  progressArea,
  certificatesArea,
  factoryArea,
  contactArea,
  featuresArea,
  schoolArea,
  creatorArea,
  gdprArea,
  reportsArea,
  catalogArea,
  paymentsArea,
  refundsArea,
  entitlementsArea,
  codelabArea,
  projectsArea,
  portfolioArea,
  graphArea,
];
