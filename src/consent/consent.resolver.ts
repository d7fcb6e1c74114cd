import { Arg, Args, Ctx, FieldResolver, ID, Mutation, Query, Resolver, Root } from 'type-graphql';
import { type User, UserView } from '../auth';
import { PageArgs, pageOf, toConnection } from '../kernel/pagination';
import type { NodeSource } from '../kernel/node';
import type { ConsentLedgerEntry } from './consent.entity';
import { consentRules } from './consent.rules';
import type { Context } from '../kernel/context';
import type { ConsentState } from './consent.service';
import { ConsentChangeInput, ConsentLedgerConnection, ConsentLedgerEntryView, ConsentView } from './consent.types';

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

function presentEntry(e: ConsentLedgerEntry): ConsentLedgerEntryView {
  return {
    id: e.id,
    subjectId: e.subject.id,
    consentTypeId: e.type,
    action: e.action,
    actorId: e.actor?.id ?? null,
    actorRole: e.actorRole,
    country: e.country,
    policyVersion: e.policyVersion,
    createdAt: e.createdAt,
  };
}

export const consentNodes: NodeSource[] = [
  {
    type: 'ConsentLedgerEntryView',
    table: 'consent_ledger',
    rule: consentRules.Query.consentLedger,
    field: 'Query.consentLedger',
    loadMany: async (ctx, ids) =>
      (await ctx.services.consent.ledgerEntriesByIds(await viewer(ctx), ids)).map(presentEntry),
  },
];

/** Consents as edges of an account: the account's own, or a linked learner's for their guardian. */
@Resolver(() => UserView)
export class ConsentUserEdges {
  @FieldResolver(() => [ConsentView], {
    nullable: true,
    description: "Every consent type and whether it holds (the account and a learner's active guardians)",
  })
  async consents(@Root() user: User, @Ctx() ctx: Context) {
    return (await ctx.services.consent.statesOfSubject(user.id)).map(present);
  }

  @FieldResolver(() => ConsentLedgerConnection, {
    nullable: true,
    description:
      "Every grant and revoke of the account's consents, newest first (the account and a learner's active guardians)",
  })
  async consentLedger(@Root() user: User, @Args(() => PageArgs) page: PageArgs, @Ctx() ctx: Context) {
    const caller = await viewer(ctx);
    const entries = await ctx.services.consent.ledger(caller, user.id === caller.id ? null : user.id);
    return toConnection(pageOf(entries.map(presentEntry), page.first, page.after));
  }
}

@Resolver()
export class ConsentResolver {
  @Query(() => [ConsentView], { description: 'Every consent type for the caller, or for a linked learner (learnerId)' })
  async consents(
    @Arg('learnerId', () => ID, {
      nullable: true,
      description: "A linked learner whose consents to show; the caller's own when omitted",
    })
    learnerId: string | null,
    @Ctx() ctx: Context,
  ) {
    return (await ctx.services.consent.statesFor(await viewer(ctx), learnerId)).map(present);
  }

  @Query(() => [ConsentLedgerEntryView], {
    description: 'Every grant and revoke, newest first: the person, their guardians, admins',
  })
  async consentLedger(
    @Arg('learnerId', () => ID, {
      nullable: true,
      description: "A linked learner whose ledger to show; the caller's own when omitted",
    })
    learnerId: string | null,
    @Ctx() ctx: Context,
  ): Promise<ConsentLedgerEntryView[]> {
    return (await ctx.services.consent.ledger(await viewer(ctx), learnerId)).map(presentEntry);
  }

  @Mutation(() => ConsentView, { description: 'Grants a consent for the caller, or as guardian for a linked learner' })
  async grantConsent(
    @Arg('input', () => ConsentChangeInput, { description: 'The consent to grant and, for a guardian, the learner' })
    input: ConsentChangeInput,
    @Ctx() ctx: Context,
  ) {
    return present(await ctx.services.consent.grant(await viewer(ctx), input.consentTypeId, input.learnerId));
  }

  @Mutation(() => ConsentView, { description: 'Revokes a consent; the feature stops at once' })
  async revokeConsent(
    @Arg('input', () => ConsentChangeInput, { description: 'The consent to revoke and, for a guardian, the learner' })
    input: ConsentChangeInput,
    @Ctx() ctx: Context,
  ) {
    return present(await ctx.services.consent.revoke(await viewer(ctx), input.consentTypeId, input.learnerId));
  }
}
