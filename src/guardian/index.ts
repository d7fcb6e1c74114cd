import { allRowsOf, plain } from '../kernel/personal-data';
import { defineArea } from '../kernel/area';
import { Migration20261129000200_ai_access_setting_events } from './migrations/Migration20261129000200_ai_access_setting_events';
import { LearnerAiAccess } from './ai-access.entity';
import { GuardianLink, GuardianLinkTransition } from './guardian-link.entity';
import { defineGuardianJobs } from './guardian.jobs';
import { GuardianLinkEdges, GuardianUserEdges, guardianNodes } from './guardian.graph';
import { GuardianResolver } from './guardian.resolver';
import { guardianRoutes } from './guardian.routes';
import { guardianRules } from './guardian.rules';
import { GuardianService } from './guardian.service';
import { Migration20261130000600_active_guardian_links_view } from './migrations/Migration20261130000600_active_guardian_links_view';
import { Migration20261122020000_guardians_consent } from './migrations/Migration20261122020000_guardians_consent';
import { Migration20261204000000_transition_actor_of_any_region } from './migrations/Migration20261204000000_transition_actor_of_any_region';

export type { AiAccess, GuardianService } from './guardian.service';
export { callerLearnerIds, isGuardianOf, isSelfOrGuardian, isVerifiedGuardian, learnerActive } from './guardian.rules';
export { LinkedLearner } from './guardian.types';

declare module '../kernel/events' {
  interface DomainEvents {
    /** A guardian declared a learner who has an account: the link waits for the learner. */
    'guardian.link_requested': { linkId: string; learnerId: string; guardianId: string; guardianName: string };
  }
}

declare module '../kernel/services' {
  interface Services {
    guardian: GuardianService;
  }
}

export const guardianArea = defineArea({
  name: 'guardian',
  uses: ['auth'],
  migrations: [
    { name: 'Migration20261122020000_guardians_consent', class: Migration20261122020000_guardians_consent },
    {
      name: 'Migration20261129000200_ai_access_setting_events',
      class: Migration20261129000200_ai_access_setting_events,
    },
    {
      name: 'Migration20261130000600_active_guardian_links_view',
      class: Migration20261130000600_active_guardian_links_view,
    },
    {
      name: 'Migration20261204000000_transition_actor_of_any_region',
      class: Migration20261204000000_transition_actor_of_any_region,
    },
  ],
  entities: [GuardianLink, GuardianLinkTransition, LearnerAiAccess],
  resolvers: [GuardianResolver, GuardianUserEdges, GuardianLinkEdges],
  nodes: guardianNodes,
  rules: guardianRules,
  routes: guardianRoutes,
  services: {
    guardian: (uow, services) => new GuardianService(uow, uow.deps, services.auth, services.accounts),
  },
  jobs: defineGuardianJobs,
  personalData: {
    entities: [GuardianLink, GuardianLinkTransition, LearnerAiAccess],
    export: async (userId, _services, uow) => {
      const links = await uow.em.find(
        GuardianLink,
        { $or: [{ learner: userId }, { guardian: userId }] },
        { orderBy: { createdAt: 'asc' } },
      );
      return {
        links: links.map((l) => {
          const { confirmTokenHash: _hash, ...link } = plain(l);
          return link;
        }),
        transitions: await allRowsOf(uow, GuardianLinkTransition, { link: { $in: links.map((l) => l.id) } }),
        aiAccess: await allRowsOf(uow, LearnerAiAccess, { learner: userId }),
      };
    },
    // Links on either side go (with their history), and invitations sent to the person's address.
    erase: async (userId, _pseudonym, services, uow) => {
      const email = await services.auth.emailOf(userId);
      await uow.em.nativeDelete(GuardianLink, {
        $or: [{ learner: userId }, { guardian: userId }, ...(email ? [{ learnerEmail: email }] : [])],
      });
      await uow.em.nativeDelete(LearnerAiAccess, { learner: userId });
      await uow.em.nativeUpdate(LearnerAiAccess, { updatedBy: userId }, { updatedBy: null });
      await uow.em.nativeUpdate(GuardianLinkTransition, { actor: userId }, { actor: null });
    },
  },
});
