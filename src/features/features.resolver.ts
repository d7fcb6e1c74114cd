import { GraphQLJSONObject } from 'graphql-scalars';
import { Arg, Ctx, Mutation, Query, Resolver } from 'type-graphql';
import type { Context } from '../kernel/context';
import type { FeatureFlag } from './feature-flag.entity';
import { FeatureFlagInput, FeatureFlagView } from './features.types';

@Resolver()
export class FeaturesResolver {
  @Query(() => GraphQLJSONObject, {
    description: "Each feature flag's value for the caller, `{ key: true|false }` (anonymous: the defaults)",
  })
  async features(@Ctx() ctx: Context) {
    return ctx.services.features.evaluateAll(await ctx.viewer());
  }

  @Query(() => [FeatureFlagView], { description: 'Every flag with its rules (admins only)' })
  async featureFlags(@Ctx() ctx: Context) {
    return (await ctx.services.features.list()).map(flagView);
  }

  @Mutation(() => FeatureFlagView, {
    description: 'Creates or replaces a flag (admins only); every instance sees it at once; audited',
  })
  async setFeatureFlag(
    @Arg('key', () => String, { description: "The flag's unique name; a new name creates the flag" }) key: string,
    @Arg('input', () => FeatureFlagInput, { description: 'The flag as it should be' }) input: FeatureFlagInput,
    @Ctx() ctx: Context,
  ) {
    return flagView(await ctx.services.features.put(await ctx.viewer(), key, input));
  }
}

function flagView(flag: FeatureFlag): FeatureFlagView {
  return {
    key: flag.key,
    description: flag.description,
    enabled: flag.enabled,
    rules: flag.rules,
    updatedBy: flag.updatedBy?.id ?? null,
    updatedAt: flag.updatedAt,
  } as FeatureFlagView;
}
