import { defineArea } from '../kernel/area';
import { LearnerAiAccess } from './ai-access.entity';
import { GuardianLink, GuardianLinkTransition } from './guardian-link.entity';
import { GuardianResolver } from './guardian.resolver';
import { guardianRoutes } from './guardian.routes';
import { guardianRules } from './guardian.rules';
import { GuardianService } from './guardian.service';


export type { AiAccess, GuardianService } from './guardian.service';
export { isGuardianOf, isVerifiedGuardian, learnerActive } from './guardian.rules';
export { LinkedLearner } from './guardian.types';

declare module '../kernel/services' {
  interface Services {
    guardian: GuardianService;
  }
}

export const guardianArea = defineArea({
  name: 'guardian',
  entities: [GuardianLink, GuardianLinkTransition, LearnerAiAccess],
  resolvers: [GuardianResolver],
  rules: guardianRules,
  routes: guardianRoutes,
  services: { guardian: (uow, services) => new GuardianService(uow, uow.deps, services.auth, services.notifications) },
  personalData: { entities: [GuardianLink, GuardianLinkTransition, LearnerAiAccess] },
});
