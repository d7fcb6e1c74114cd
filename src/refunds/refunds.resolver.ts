import { Arg, Args, Ctx, ID, Mutation, Query, Resolver } from 'type-graphql';
import type { User } from '../auth';
import type { Context } from '../kernel/context';
import type { NodeSource } from '../kernel/node';
import { PageArgs, toConnectionOf } from '../kernel/pagination';
import type { Refund } from './refunds.entity';
import { refundsRules } from './refunds.rules';
import { RefundConnection, RefundInput, RefundView } from './refunds.types';

const presentRefund = (r: Refund): RefundView => ({
  id: r.id,
  paymentId: r.payment.id,
  status: r.status,
  amount: r.amount,
  currency: r.currency,
  reason: r.reason,
  createdAt: r.createdAt,
});

const viewer = async (ctx: Context) => (await ctx.viewer()) as User;

export const refundsNodes: NodeSource[] = [
  {
    // Two reads list refunds: the caller's own (myRefunds) and every one for admins (refunds); the read keeps each to its reader.
    type: 'Refund',
    table: 'refunds',
    rule: refundsRules.Query.myRefunds,
    field: 'Query.myRefunds',
    loadMany: async (ctx, ids) => (await ctx.services.refunds.byIds(await viewer(ctx), ids)).map(presentRefund),
  },
];

@Resolver()
export class RefundsResolver {
  @Mutation(() => RefundView, { description: `The payer within the refund window, or an admin` })
  async requestRefund(
    @Arg('input', () => RefundInput, { description: 'The payment, the amount and the reason' }) input: RefundInput,
    @Ctx() ctx: Context,
  ) {
    return presentRefund(await ctx.services.refunds.request(await viewer(ctx), input));
  }

  @Mutation(() => RefundView, { description: 'Admins: approves a requested refund; the provider then refunds' })
  async approveRefund(@Arg('id', () => ID, { description: 'The refund to approve' }) id: string, @Ctx() ctx: Context) {
    return presentRefund(await ctx.services.refunds.approve(await viewer(ctx), id));
  }

  @Mutation(() => RefundView, { description: 'Admins: refuses a requested refund' })
  async rejectRefund(@Arg('id', () => ID, { description: 'The refund to refuse' }) id: string, @Ctx() ctx: Context) {
    return presentRefund(await ctx.services.refunds.reject(await viewer(ctx), id));
  }

  @Query(() => RefundConnection, { description: "Refunds of the caller's payments, newest first" })
  async myRefunds(@Args(() => PageArgs) page: PageArgs, @Ctx() ctx: Context) {
    return toConnectionOf(
      await ctx.services.refunds.list(await viewer(ctx), true, page.first, page.after),
      presentRefund,
    );
  }

  @Query(() => RefundConnection, { description: 'Admins: every refund' })
  async refunds(@Args(() => PageArgs) page: PageArgs, @Ctx() ctx: Context) {
    return toConnectionOf(await ctx.services.refunds.list(null, false, page.first, page.after), presentRefund);
  }
}
