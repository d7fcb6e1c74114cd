import { allow, chain, rule } from 'graphql-shield';
import { Tier } from '../auth';
import { ConsentType, hasConsent } from '../consent';
import { learnerActive } from '../guardian';
import type { Context } from '../kernel/context';
import { isAuthenticated, isSelf, throttled, tierAtLeast } from '../permissions/rules';
import { aiMemoryTurnedOff, aiTurnedOff } from './ai.errors';

/** At the door: a token, and the per-minute AI limit (counted once, REST or GraphQL). */
const aiCaller = chain(isAuthenticated, throttled('ai'));

const guardianAllowsAi = rule('guardianAllowsAi', { cache: 'no_cache' })(async (_parent, _args, ctx: Context) => {
  const access = await ctx.services.guardian.aiAccessOf(ctx.auth.userId!);
  return access.enabled || aiTurnedOff();
});

const guardianAllowsMemory = rule('guardianAllowsMemory', { cache: 'no_cache' })(async (
  _parent,
  _args,
  ctx: Context,
) => {
  const access = await ctx.services.guardian.aiAccessOf(ctx.auth.userId!);
  return access.memoryEnabled || aiMemoryTurnedOff();
});

/** Talking to the tutor, in the order callers learn of refusals: active learner, consent, the guardian's switch. */
export const mayConverse = chain(aiCaller, learnerActive, hasConsent(ConsentType.ai_conversation), guardianAllowsAi);

/** Memory also needs the Starter tier, its own consent and the guardian's memory switch. */
export const mayUseMemory = chain(
  mayConverse,
  tierAtLeast(Tier.starter),
  hasConsent(ConsentType.ai_memory),
  guardianAllowsMemory,
);

export const aiRules = {
  Query: { aiQuota: aiCaller, aiConversations: mayConverse, aiMemory: mayUseMemory },
  Mutation: { aiChat: mayConverse, forgetAiMemory: aiCaller },
  AiChatReply: allow,
  AiQuota: allow,
  User: { aiConversations: chain(isSelf, mayConverse) },
};
