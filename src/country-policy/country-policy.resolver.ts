import { Arg, Ctx, FieldResolver, Mutation, Query, Resolver, Root } from 'type-graphql';
import type { Context } from '../kernel/context';
import { CountryPolicyChangeView, CountryPolicyInput, CountryPolicyView } from './country-policy.types';

@Resolver(() => CountryPolicyView)
export class CountryPolicyResolver {
  @Query(() => CountryPolicyView, { description: "A country's consent rules (public)" })
  countryPolicy(
    @Arg('country', () => String, { description: 'The country, ISO 3166-1 alpha-2' }) country: string,
    @Ctx() ctx: Context,
  ) {
    return ctx.services.countryPolicy.policyOf(country);
  }

  @Mutation(() => CountryPolicyView, { description: "Changes a country's values (admins); every change is kept" })
  async updateCountryPolicy(
    @Arg('country', () => String, { description: 'The country, ISO 3166-1 alpha-2' }) country: string,
    @Arg('input', () => CountryPolicyInput, { description: 'The values to change; omitted ones are kept' })
    input: CountryPolicyInput,
    @Ctx() ctx: Context,
  ) {
    return ctx.services.countryPolicy.update(await ctx.viewer(), country, input);
  }

  @FieldResolver(() => [CountryPolicyChangeView], { nullable: true, description: 'Who changed what and when (admins)' })
  async history(@Root() policy: CountryPolicyView, @Ctx() ctx: Context): Promise<CountryPolicyChangeView[]> {
    const changes = await ctx.services.countryPolicy.changes(policy.country);
    return changes.map((c) => ({
      version: c.version,
      authorId: c.author?.id ?? null,
      before: c.before,
      after: c.after,
      createdAt: c.createdAt,
    }));
  }
}
