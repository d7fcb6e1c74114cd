import { rule } from 'graphql-shield';
import type { Context } from '../kernel/context';
import { aboutCaller, namedRule } from '../permissions/rules';
import { featureDisabled } from './features.errors';

/**
 * Lets an operation through only while the flag is on for the caller, else 403 feature_disabled.
 * `defaultValue` decides while no such flag exists (on for features that ship on, off for betas).
 */
export const featureEnabled = (key: string, defaultValue = false) =>
  namedRule(`featureEnabled(${key},${defaultValue})`, () =>
    aboutCaller(
      rule(`featureEnabled(${key},${defaultValue})`, { cache: 'no_cache' })(async (_parent, _args, ctx: Context) => {
        const enabled = await ctx.services.features.isEnabled(key, await ctx.viewer(), defaultValue);
        return enabled || featureDisabled();
      }),
    ),
  );
