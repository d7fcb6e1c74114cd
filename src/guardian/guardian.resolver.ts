import { Arg, Args, Ctx, FieldResolver, ID, Mutation, Query, Resolver, Root } from 'type-graphql';
import type { User } from '../auth';
import type { Context } from '../kernel/context';
import { PageArgs, toConnection } from '../kernel/pagination';
import type { GuardianLink } from './guardian-link.entity';
import {
  AddChildInput,
  AiAccessInput,
  AiAccessView,
  ConfirmLinkInput,
  DeclareLearnerInput,
  GuardianLinkConnection,
  GuardianLinkTransitionView,
  GuardianLinkView,
  LinkedLearner,
  LinkParty,
} from './guardian.types';

/** Shield has let only signed-in callers through to the fields that use this. */
const viewer = async (ctx: Context): Promise<User> => (await ctx.viewer())!;

@Resolver(() => GuardianLinkView)
export class GuardianResolver {
  @Query(() => GuardianLinkConnection, { description: "The caller's links: as guardian, and as learner" })
  async myGuardianLinks(@Args(() => PageArgs) page: PageArgs, @Ctx() ctx: Context) {
    return toConnection(await ctx.services.guardian.linksOf(await viewer(ctx), page.first, page.after));
  }

  @Query(() => LinkedLearner, { description: 'A learner the caller is an active guardian of' })
  async linkedLearner(
    @Arg('learnerId', () => ID, { description: 'The id of a learner linked to the caller' }) learnerId: string,
    @Ctx() ctx: Context,
  ) {
    return ctx.services.guardian.learnerFor(await viewer(ctx), learnerId);
  }

  @Query(() => AiAccessView, { description: "A linked learner's AI restrictions" })
  async learnerAiAccess(
    @Arg('learnerId', () => ID, { description: 'The id of a learner linked to the caller' }) learnerId: string,
    @Ctx() ctx: Context,
  ) {
    await ctx.services.guardian.learnerFor(await viewer(ctx), learnerId);
    return ctx.services.guardian.aiAccessOf(learnerId);
  }

  @Mutation(() => GuardianLinkView, { description: 'Links to the learner with this e-mail once they confirm' })
  async declareLearner(
    @Arg('input', () => DeclareLearnerInput, { description: "The learner's e-mail address" })
    input: DeclareLearnerInput,
    @Ctx() ctx: Context,
  ) {
    return ctx.services.guardian.declare(await viewer(ctx), input.learnerEmail);
  }

  @Mutation(() => GuardianLinkView, {
    description: 'Creates an account for a child without an e-mail, managed by the caller',
  })
  async addChild(
    @Arg('input', () => AddChildInput, { description: "The child's profile" }) input: AddChildInput,
    @Ctx() ctx: Context,
  ) {
    return ctx.services.guardian.addChild(await viewer(ctx), input);
  }

  @Mutation(() => GuardianLinkView, { description: 'The learner (or an admin) approves a pending link' })
  async approveGuardianLink(
    @Arg('id', () => ID, { description: "The link's global id" }) id: string,
    @Ctx() ctx: Context,
  ) {
    return ctx.services.guardian.approve(await viewer(ctx), id);
  }

  @Mutation(() => GuardianLinkView, { description: 'The guardian, the learner from 16, or an admin ends a link' })
  async revokeGuardianLink(
    @Arg('id', () => ID, { description: "The link's global id" }) id: string,
    @Ctx() ctx: Context,
  ) {
    return ctx.services.guardian.revoke(await viewer(ctx), id);
  }

  @Mutation(() => GuardianLinkView, { description: 'Confirms a link with the token mailed to the learner' })
  confirmGuardianLink(
    @Arg('input', () => ConfirmLinkInput, { description: 'The token from the confirmation mail' })
    input: ConfirmLinkInput,
    @Ctx() ctx: Context,
  ) {
    return ctx.services.guardian.confirm(input.token);
  }

  @Mutation(() => AiAccessView, { description: "Restricts a linked learner's AI use; the AI proxy obeys" })
  async updateLearnerAiAccess(
    @Arg('learnerId', () => ID, { description: 'The id of a learner linked to the caller' }) learnerId: string,
    @Arg('input', () => AiAccessInput, { description: 'The settings to change' }) input: AiAccessInput,
    @Ctx() ctx: Context,
  ) {
    return ctx.services.guardian.setAiAccess(await viewer(ctx), learnerId, input);
  }

  /**
   * The learner only once the link is active: a pending link reads the same whether or not its
   * address has an account, so declaring an address tells a guardian nothing about who signed up.
   */
  @FieldResolver(() => LinkParty, { description: "The guardian's side of the link" })
  async guardian(@Root() link: GuardianLink, @Ctx() ctx: Context): Promise<LinkParty> {
    return ctx.services.guardian.guardianSeenBy((await ctx.viewer()) ?? null, link);
  }

  @FieldResolver(() => LinkParty, { nullable: true, description: 'Null until the link has been active' })
  learner(@Root() link: GuardianLink): LinkParty | null {
    return link.activatedAt && link.learner ? (link.learner as unknown as LinkParty) : null;
  }

  @FieldResolver(() => [GuardianLinkTransitionView], { description: 'Each state the link entered, when and by whom' })
  async history(@Root() link: GuardianLink, @Ctx() ctx: Context): Promise<GuardianLinkTransitionView[]> {
    const transitions = await ctx.services.guardian.transitionsOf(link.id);
    return transitions.map((t) => ({ status: t.status, actorId: t.actor?.id ?? null, at: t.createdAt }));
  }
}
