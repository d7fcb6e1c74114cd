import { Arg, Ctx, Mutation, Query, Resolver } from 'type-graphql';
import type { User } from '../auth';
import type { Context } from '../kernel/context';
import { presentProject } from '../projects';
import type { Portfolio } from './portfolio.entity';
import { PortfolioInput, PortfolioView, PublicPortfolioView } from './portfolio.types';

function presentPortfolio(p: Portfolio | null): PortfolioView {
  if (!p) return { handle: null, headline: '', bio: '', projectIds: [], certificateIds: [], visibility: 'private' };
  return {
    handle: p.handle,
    headline: p.headline,
    bio: p.bio,
    projectIds: p.projectIds,
    certificateIds: p.certificateIds,
    visibility: p.visibility,
  };
}

const me = async (ctx: Context) => (await ctx.viewer()) as User;

@Resolver()
export class PortfolioResolver {
  @Query(() => PortfolioView, { description: "The caller's portfolio, with empty values until it is first saved" })
  async myPortfolio(@Ctx() ctx: Context) {
    return presentPortfolio(await ctx.services.portfolio.myPortfolio(await me(ctx)));
  }

  @Mutation(() => PortfolioView, { description: "Saves the caller's portfolio as a whole" })
  async updatePortfolio(
    @Arg('input', () => PortfolioInput, { description: 'The portfolio as it should be' }) input: PortfolioInput,
    @Ctx() ctx: Context,
  ) {
    return presentPortfolio(await ctx.services.portfolio.updatePortfolio(await me(ctx), input));
  }

  @Query(() => PublicPortfolioView, { description: 'A public portfolio by handle (anyone)' })
  async portfolio(
    @Arg('handle', () => String, { description: 'The handle of the portfolio, as in its public address' })
    handle: string,
    @Ctx() ctx: Context,
  ): Promise<PublicPortfolioView> {
    const page = await ctx.services.portfolio.publicPortfolio(handle);
    return {
      handle: page.portfolio.handle,
      displayName: page.displayName,
      headline: page.portfolio.headline,
      bio: page.portfolio.bio,
      projects: page.projects.map(presentProject),
      certificates: page.certificates.map((c) => ({ id: c.id, courseTitle: c.course.title, issuedAt: c.issuedAt })),
    };
  }
}
