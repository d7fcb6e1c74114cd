import { restRoutes } from '../kernel/rest-route';

/** The REST paths of portfolios; each runs the operation of that name in `portfolio.graphql`. */
export const portfolioRoutes = restRoutes(__dirname, 'portfolio.graphql', [
  { method: 'get', path: '/portfolio/me', status: 200, operation: 'MyPortfolio', summary: "The caller's portfolio" },
  {
    method: 'put',
    path: '/portfolio/me',
    status: 200,
    operation: 'UpdatePortfolio',
    summary: "Set the caller's portfolio (a public one under 18 needs a guardian's progress_sharing consent)",
  },
  {
    method: 'get',
    path: '/portfolio/:handle',
    status: 200,
    operation: 'Portfolio',
    summary: 'A public portfolio: display name, headline, bio, public projects and certificates',
  },
]);
