import { defineArea } from '../kernel/area';
import { allRowsOf } from '../kernel/personal-data';
import { Portfolio } from './portfolio.entity';
import { PortfolioResolver } from './portfolio.resolver';
import { portfolioRoutes } from './portfolio.routes';
import { portfolioRules } from './portfolio.rules';
import { PortfolioService } from './portfolio.service';

export type { PortfolioService } from './portfolio.service';

declare module '../kernel/services' {
  interface Services {
    portfolio: PortfolioService;
  }
}

/**
 * A learner's portfolio: a public page of chosen projects and certificates (docs/codelab.md). The
 * table is still the one CodeLab's migration made (`codelab_portfolios`).
 */
export const portfolioArea = defineArea({
  name: 'portfolio',
  uses: ['auth', 'certificates', 'consent', 'projects'],
  entities: [Portfolio],
  resolvers: [PortfolioResolver],
  rules: portfolioRules,
  routes: portfolioRoutes,
  services: { portfolio: (uow, services) => new PortfolioService(uow, services.projects, services.certificates) },
  on: {
    consentRevoked: (event, services) => services.portfolio.consentRevoked(event.subjectId, event.consentType),
  },
  personalData: {
    entities: [Portfolio],
    export: async (userId, _services, uow) => ({ portfolio: await allRowsOf(uow, Portfolio, { user: userId }) }),
    erase: async (userId, _pseudonym, _services, uow) => {
      await uow.em.nativeDelete(Portfolio, { user: userId });
    },
  },
});
