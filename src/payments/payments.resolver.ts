import { Arg, Args, Ctx, FieldResolver, ID, Mutation, Query, Resolver, Root } from 'type-graphql';
import { type User, UserView } from '../auth';
import type { NodeSource } from '../kernel/node';
import { paymentsRules } from './payments.rules';
import type { Context } from '../kernel/context';
import { PageArgs, toConnectionOf } from '../kernel/pagination';
import type { Payment, PurchaseRequest } from './payments.entity';
import {
  CheckoutInput,
  CheckoutResultView,
  CheckoutView,
  LedgerBalancesView,
  MySalesView,
  PaymentConnection,
  PaymentView,
  PurchaseRequestConnection,
  PurchaseRequestView,
} from './payments.types';

export function presentPayment(p: Payment): PaymentView {
  return {
    id: p.id,
    status: p.status,
    provider: p.provider,
    amount: p.amount,
    currency: p.currency,
    refundedAmount: p.refundedAmount,
    productId: p.product.id,
    priceId: p.priceId,
    payerId: p.payer.id,
    beneficiaryId: p.beneficiary.id,
    redirectUrl: p.redirectUrl,
    expiresAt: p.expiresAt,
    succeededAt: p.succeededAt,
    createdAt: p.createdAt,
  };
}

const presentRequest = (r: PurchaseRequest): PurchaseRequestView => ({
  id: r.id,
  status: r.status,
  productId: r.product.id,
  priceId: r.priceId,
  learnerId: r.learner.id,
  learnerName: r.learner.displayName,
  productTitle: r.product.title,
  paymentId: r.paymentId,
  decidedAt: r.decidedAt,
  createdAt: r.createdAt,
});

const viewer = async (ctx: Context) => (await ctx.viewer()) as User;

/** What an account bought or was given: only the account itself reads it. */
@Resolver(() => UserView)
export class PaymentsUserEdges {
  @FieldResolver(() => PaymentConnection, {
    nullable: true,
    description: 'Payments the account made or benefits from, newest first (the account itself)',
  })
  async payments(@Root() user: User, @Args(() => PageArgs) page: PageArgs, @Ctx() ctx: Context) {
    return toConnectionOf(await ctx.services.payments.myPayments(user, page.first, page.after), presentPayment);
  }
}

export const paymentsNodes: NodeSource[] = [
  {
    type: 'Payment',
    table: 'payments',
    rule: paymentsRules.Query.payment,
    field: 'Query.payment',
    loadMany: async (ctx, ids) =>
      (await ctx.services.payments.paymentsByIds(await viewer(ctx), ids)).map(presentPayment),
  },
  {
    type: 'PurchaseRequest',
    table: 'purchase_requests',
    rule: paymentsRules.Query.purchaseRequests,
    field: 'Query.purchaseRequests',
    loadMany: async (ctx, ids) =>
      (await ctx.services.payments.purchaseRequestsByIds(await viewer(ctx), ids)).map(presentRequest),
  },
];

@Resolver()
export class PaymentsResolver {
  @Query(() => MySalesView, { description: "Creators: each sale and their earnings after the platform's fee" })
  async mySales(@Ctx() ctx: Context) {
    return ctx.services.payments.sales(await viewer(ctx));
  }

  // payments

  @Mutation(() => CheckoutResultView, { description: 'REST sends the Idempotency-Key header as idempotencyKey' })
  async checkout(
    @Arg('input', () => CheckoutInput, { description: 'What to buy, at which price, with which provider' })
    input: CheckoutInput,
    @Arg('idempotencyKey', () => String, {
      nullable: true,
      description: "A key of the caller's choice: the same key and input answer the first answer again",
    })
    key: string | null,
    @Ctx() ctx: Context,
  ) {
    return ctx.services.payments.checkout(await viewer(ctx), input, key ?? null);
  }

  @Query(() => PaymentConnection, { description: 'Payments the caller made or benefits from' })
  async myPayments(@Args(() => PageArgs) page: PageArgs, @Ctx() ctx: Context) {
    return toConnectionOf(
      await ctx.services.payments.myPayments(await viewer(ctx), page.first, page.after),
      presentPayment,
    );
  }

  @Query(() => PaymentView, { description: 'One payment, for its payer, its beneficiary and admins' })
  async payment(@Arg('id', () => ID, { description: 'The payment to show' }) id: string, @Ctx() ctx: Context) {
    return presentPayment(await ctx.services.payments.payment(await viewer(ctx), id));
  }

  @Query(() => [String], { description: 'The payment providers this service offers' })
  paymentProviders(@Ctx() ctx: Context) {
    return ctx.services.payments.offeredProviders();
  }

  @Query(() => PurchaseRequestConnection, { description: "A guardian's learners' requests (a learner: their own)" })
  async purchaseRequests(@Args(() => PageArgs) page: PageArgs, @Ctx() ctx: Context) {
    return toConnectionOf(
      await ctx.services.payments.purchaseRequests(await viewer(ctx), page.first, page.after),
      presentRequest,
    );
  }

  @Mutation(() => CheckoutView, {
    description: 'A guardian approves: a checkout for them to pay, the learner its beneficiary',
  })
  async approvePurchaseRequest(
    @Arg('id', () => ID, { description: 'The purchase request to approve' }) id: string,
    @Arg('provider', () => String, {
      nullable: true,
      description: 'Payment provider: stripe, vnpay, momo or sandbox; the default when omitted',
    })
    provider: string | null,
    @Arg('returnUrl', () => String, {
      nullable: true,
      description: 'Where the provider sends the guardian back after paying: an address on WEB_ORIGIN or APP_ORIGIN',
    })
    returnUrl: string | null,
    @Ctx() ctx: Context,
  ) {
    return (await ctx.services.payments.approveRequest(await viewer(ctx), id, provider ?? null, returnUrl ?? null))
      .payment;
  }

  @Mutation(() => PurchaseRequestView, { description: "A guardian declines a linked learner's purchase request" })
  async declinePurchaseRequest(
    @Arg('id', () => ID, { description: 'The purchase request to decline' }) id: string,
    @Ctx() ctx: Context,
  ) {
    return presentRequest(await ctx.services.payments.declineRequest(await viewer(ctx), id));
  }

  // ledger

  @Query(() => LedgerBalancesView, { description: 'Admins: balance per account and currency' })
  async ledgerBalances(@Ctx() ctx: Context) {
    return { items: await ctx.services.payments.balances() };
  }
}
