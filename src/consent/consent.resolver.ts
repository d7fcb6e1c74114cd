import { Arg, Ctx, ID, Mutation, Query, Resolver } from 'type-graphql';
import type { User } from '../auth';
import type { Context } from '../kernel/context';
import type { ConsentState } from './consent.service';
import { ConsentChangeInput, ConsentLedgerEntryView, ConsentView } from './consent.types';

const viewer = async (ctx: Context): Promise<User> => (await ctx.viewer())!;

function present(state: ConsentState): ConsentView {
  const grantor = state.guardianGrantedBy;
  return {
    consentTypeId: state.type,
    granted: state.granted,
    needsGuardian: state.needsGuardian,
    needsOwnConsent: state.needsOwn,
    canGrantAlone: !state.needsGuardian,
    guardianGrantedBy: grantor ? { id: grantor.id, displayName: grantor.displayName } : null,
    guardianGrantedAt: state.guardianGrantedAt,
    ownGrantedAt: state.ownGrantedAt,
    policyVersion: state.policyVersion,
  };
}

@Resolver()
export class ConsentResolver {
  @Query(() => [ConsentView], { description: 'Every consent type for the caller, or for a linked learner (learnerId)' })
  async consents(@Arg('learnerId', () => ID, { nullable: true }) learnerId: string | null, @Ctx() ctx: Context) {
    return (await ctx.services.consent.statesFor(await viewer(ctx), learnerId)).map(present);
  }

  @Query(() => [ConsentLedgerEntryView], { description: 'Every grant and revoke, newest first: the person, their guardians, admins' })
  async consentLedger(@Arg('learnerId', () => ID, { nullable: true }) learnerId: string | null, @Ctx() ctx: Context): Promise<ConsentLedgerEntryView[]> {
    const entries = await ctx.services.consent.ledger(await viewer(ctx), learnerId);
    return entries.map((e) => ({
      id: e.id,
      subjectId: e.subject.id,
      consentTypeId: e.type,
      action: e.action,
      actorId: e.actor?.id ?? null,
      actorRole: e.actorRole,
      country: e.country,
      policyVersion: e.policyVersion,
      createdAt: e.createdAt,
    }));
  }

  @Mutation(() => ConsentView, { description: 'Grants a consent for the caller, or as guardian for a linked learner' })
  async grantConsent(@Arg('input', () => ConsentChangeInput) input: ConsentChangeInput, @Ctx() ctx: Context) {
    return present(await ctx.services.consent.grant(await viewer(ctx), input.consentTypeId, input.learnerId));
  }

  @Mutation(() => ConsentView, { description: 'Revokes a consent; the feature stops at once' })
  async revokeConsent(@Arg('input', () => ConsentChangeInput) input: ConsentChangeInput, @Ctx() ctx: Context) {
    return present(await ctx.services.consent.revoke(await viewer(ctx), input.consentTypeId, input.learnerId));
  }
}
