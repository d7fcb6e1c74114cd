import { Arg, Args, Ctx, FieldResolver, ID, Mutation, Query, Resolver, Root } from 'type-graphql';
import { type User, UserView } from '../auth';
import type { NodeSource } from '../kernel/node';
import { commerceRules } from './commerce.rules';
import type { Context } from '../kernel/context';
import { offsetCursor, PageArgs, toConnectionOf } from '../kernel/pagination';
import { type Payment, type Product, ProductStatus, type PurchaseRequest, type Refund } from './commerce.entity';
import {
  CheckoutInput,
  CheckoutResultView,
  CheckoutView,
  LedgerBalancesView,
  MarketplaceArgs,
  MySalesView,
  PaymentConnection,
  PaymentView,
  ProductChangeInput,
  ProductConnection,
  ProductInput,
  ProductView,
  PurchaseRequestConnection,
  PurchaseRequestView,
  RefundConnection,
  RefundInput,
  RefundView,
  ListingReviewInput,
} from './commerce.types';

export function presentProduct(p: Product): ProductView {
  return {
    id: p.id,
    kind: p.kind,
    title: p.title,
    description: p.description,
    prices: p.prices,
    tier: p.tier,
    courseIds: p.courseIds,
    sellerId: p.seller?.id ?? null,
    seller: p.seller ? { id: p.seller.id, displayName: p.seller.displayName } : null,
    sales: p.sales,
    status: p.status,
    reviewReason: p.reviewReason,
    createdAt: p.createdAt,
  };
}

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

const presentRefund = (r: Refund): RefundView => ({ id: r.id, paymentId: r.payment.id, status: r.status, amount: r.amount, currency: r.currency, reason: r.reason, createdAt: r.createdAt });

const viewer = async (ctx: Context) => (await ctx.viewer()) as User;

/** What an account bought or was given: only the account itself reads it. */
@Resolver(() => UserView)
export class CommerceUserEdges {
  @FieldResolver(() => PaymentConnection, { nullable: true, description: 'Payments the account made or benefits from, newest first (the account itself)' })
  async payments(@Root() user: User, @Args(() => PageArgs) page: PageArgs, @Ctx() ctx: Context) {
    return toConnectionOf(await ctx.services.commerce.myPayments(user, page.first, page.after), presentPayment);
  }
}

export const commerceNodes: NodeSource[] = [
  {
    type: 'Product',
    table: 'products',
    rule: commerceRules.Query.product,
    field: 'Query.product',
    loadMany: async (ctx, ids) => (await ctx.services.commerce.productsByIds(await ctx.viewer(), ids)).map(presentProduct),
  },
  {
    type: 'Payment',
    table: 'payments',
    rule: commerceRules.Query.payment,
    field: 'Query.payment',
    loadMany: async (ctx, ids) => (await ctx.services.commerce.paymentsByIds(await viewer(ctx), ids)).map(presentPayment),
  },
  {
    type: 'PurchaseRequest',
    table: 'purchase_requests',
    rule: commerceRules.Query.purchaseRequests,
    field: 'Query.purchaseRequests',
    loadMany: async (ctx, ids) => (await ctx.services.commerce.purchaseRequestsByIds(await viewer(ctx), ids)).map(presentRequest),
  },
  {
    // Two reads list refunds: the caller's own (myRefunds) and every one for admins (refunds); the read keeps each to its reader.
    type: 'Refund',
    table: 'refunds',
    rule: commerceRules.Query.myRefunds,
    field: 'Query.myRefunds',
    loadMany: async (ctx, ids) => (await ctx.services.commerce.refundsByIds(await viewer(ctx), ids)).map(presentRefund),
  },
];

@Resolver()
export class CommerceResolver {
  // products

  @Query(() => ProductConnection, { description: 'Published products (admins: any, by status)' })
  async products(
    @Args(() => PageArgs) page: PageArgs,
    @Arg('status', () => ProductStatus, { nullable: true, description: 'Admins: only products in this status' }) status: ProductStatus | null,
    @Ctx() ctx: Context,
  ) {
    return toConnectionOf(await ctx.services.commerce.products(await ctx.viewer(), page.first, page.after, status), presentProduct);
  }

  @Query(() => ProductView, { description: 'One product: a published one for anyone, any for admins and content admins, its own for a seller' })
  async product(@Arg('id', () => ID, { description: 'The product to show' }) id: string, @Ctx() ctx: Context) {
    return presentProduct(await ctx.services.commerce.product(await ctx.viewer(), id));
  }

  @Mutation(() => ProductView, { description: 'Admins: a platform product, as a draft' })
  async createProduct(@Arg('input', () => ProductInput, { description: 'The new product' }) input: ProductInput, @Ctx() ctx: Context) {
    return presentProduct(await ctx.services.commerce.createProduct(await viewer(ctx), input));
  }

  @Mutation(() => ProductView, { description: "Admins: changes a product's title, description, prices, tier or courses" })
  async updateProduct(
    @Arg('id', () => ID, { description: 'The product to change' }) id: string,
    @Arg('input', () => ProductChangeInput, { description: 'The values to change; omitted ones are kept' }) input: ProductChangeInput,
    @Ctx() ctx: Context,
  ) {
    return presentProduct(await ctx.services.commerce.updateProduct(await viewer(ctx), id, input));
  }

  @Mutation(() => ProductView, { description: 'Admins: puts a product on sale' })
  async publishProduct(@Arg('id', () => ID, { description: 'The product to publish' }) id: string, @Ctx() ctx: Context) {
    return presentProduct(await ctx.services.commerce.setProductStatus(await viewer(ctx), id, ProductStatus.published));
  }

  @Mutation(() => ProductView, { description: 'Admins: stops selling a product; what was bought stays' })
  async archiveProduct(@Arg('id', () => ID, { description: 'The product to archive' }) id: string, @Ctx() ctx: Context) {
    return presentProduct(await ctx.services.commerce.setProductStatus(await viewer(ctx), id, ProductStatus.archived));
  }

  // marketplace

  @Query(() => ProductConnection, { description: 'Published products with seller and sales; q, kind, price range in a currency, sort' })
  async marketplace(@Args(() => MarketplaceArgs) args: MarketplaceArgs, @Ctx() ctx: Context) {
    const page = await ctx.services.commerce.marketplace(args, args.first, args.after);
    const nodes = page.nodes.map(presentProduct);
    // Each edge's cursor reads on from the product after it, as endCursor does from the page's last.
    const edges = nodes.map((node, i) => ({ cursor: offsetCursor(page.offset + i + 1), node }));
    return {
      edges,
      nodes,
      pageInfo: { hasNextPage: page.hasNextPage, hasPreviousPage: page.hasPreviousPage, startCursor: edges[0]?.cursor ?? null, endCursor: page.endCursor },
      count: page.totalCount,
    };
  }

  @Query(() => ProductView, { description: 'One published product of the marketplace, with its seller and sales' })
  async marketplaceProduct(@Arg('productId', () => ID, { description: 'The product to show' }) productId: string, @Ctx() ctx: Context) {
    return presentProduct(await ctx.services.commerce.product(null, productId));
  }

  @Mutation(() => ProductView, { description: 'Creators: their own course or bundle, in review' })
  async submitListing(@Arg('input', () => ProductInput, { description: 'The listing to submit for review' }) input: ProductInput, @Ctx() ctx: Context) {
    return presentProduct(await ctx.services.commerce.submitListing(await viewer(ctx), input));
  }

  @Mutation(() => ProductView, { description: 'Content admins: publishes a listing in review' })
  async approveListing(
    @Arg('id', () => ID, { description: 'The listing to publish' }) id: string,
    @Arg('input', () => ListingReviewInput, { nullable: true, description: 'An optional note from the reviewer' }) input: ListingReviewInput | null,
    @Ctx() ctx: Context,
  ) {
    return presentProduct(await ctx.services.commerce.reviewListing(await viewer(ctx), id, true, input?.reason ?? null));
  }

  @Mutation(() => ProductView, { description: 'Content admins: refuses a listing in review with a reason' })
  async rejectListing(
    @Arg('id', () => ID, { description: 'The listing to refuse' }) id: string,
    @Arg('input', () => ListingReviewInput, { description: 'Why the listing is refused' }) input: ListingReviewInput,
    @Ctx() ctx: Context,
  ) {
    return presentProduct(await ctx.services.commerce.reviewListing(await viewer(ctx), id, false, input.reason ?? null));
  }

  @Query(() => MySalesView, { description: "Creators: each sale and their earnings after the platform's fee" })
  async mySales(@Ctx() ctx: Context) {
    return ctx.services.commerce.sales(await viewer(ctx));
  }

  // payments

  @Mutation(() => CheckoutResultView, { description: 'REST sends the Idempotency-Key header as idempotencyKey' })
  async checkout(
    @Arg('input', () => CheckoutInput, { description: 'What to buy, at which price, with which provider' }) input: CheckoutInput,
    @Arg('idempotencyKey', () => String, { nullable: true, description: "A key of the caller's choice: the same key and input answer the first answer again" }) key: string | null,
    @Ctx() ctx: Context,
  ) {
    return ctx.services.commerce.checkout(await viewer(ctx), input, key ?? null);
  }

  @Query(() => PaymentConnection, { description: 'Payments the caller made or benefits from' })
  async myPayments(@Args(() => PageArgs) page: PageArgs, @Ctx() ctx: Context) {
    return toConnectionOf(await ctx.services.commerce.myPayments(await viewer(ctx), page.first, page.after), presentPayment);
  }

  @Query(() => PaymentView, { description: 'One payment, for its payer, its beneficiary and admins' })
  async payment(@Arg('id', () => ID, { description: 'The payment to show' }) id: string, @Ctx() ctx: Context) {
    return presentPayment(await ctx.services.commerce.payment(await viewer(ctx), id));
  }

  @Query(() => [String], { description: 'The payment providers this service offers' })
  paymentProviders(@Ctx() ctx: Context) {
    return ctx.services.commerce.offeredProviders();
  }

  @Query(() => PurchaseRequestConnection, { description: "A guardian's learners' requests (a learner: their own)" })
  async purchaseRequests(@Args(() => PageArgs) page: PageArgs, @Ctx() ctx: Context) {
    return toConnectionOf(await ctx.services.commerce.purchaseRequests(await viewer(ctx), page.first, page.after), presentRequest);
  }

  @Mutation(() => CheckoutView, { description: 'A guardian approves: a checkout for them to pay, the learner its beneficiary' })
  async approvePurchaseRequest(
    @Arg('id', () => ID, { description: 'The purchase request to approve' }) id: string,
    @Arg('provider', () => String, { nullable: true, description: 'Payment provider: stripe, vnpay, momo or sandbox; the default when omitted' }) provider: string | null,
    @Arg('returnUrl', () => String, { nullable: true, description: 'Where the provider sends the guardian back after paying, an http(s) URL' }) returnUrl: string | null,
    @Ctx() ctx: Context,
  ) {
    return (await ctx.services.commerce.approveRequest(await viewer(ctx), id, provider ?? null, returnUrl ?? null)).payment;
  }

  @Mutation(() => PurchaseRequestView, { description: "A guardian declines a linked learner's purchase request" })
  async declinePurchaseRequest(@Arg('id', () => ID, { description: 'The purchase request to decline' }) id: string, @Ctx() ctx: Context) {
    return presentRequest(await ctx.services.commerce.declineRequest(await viewer(ctx), id));
  }

  // refunds

  @Mutation(() => RefundView, { description: `The payer within the refund window, or an admin` })
  async requestRefund(@Arg('input', () => RefundInput, { description: 'The payment, the amount and the reason' }) input: RefundInput, @Ctx() ctx: Context) {
    return presentRefund(await ctx.services.commerce.requestRefund(await viewer(ctx), input));
  }

  @Mutation(() => RefundView, { description: 'Admins: approves a requested refund; the provider then refunds' })
  async approveRefund(@Arg('id', () => ID, { description: 'The refund to approve' }) id: string, @Ctx() ctx: Context) {
    return presentRefund(await ctx.services.commerce.approveRefund(await viewer(ctx), id));
  }

  @Mutation(() => RefundView, { description: 'Admins: refuses a requested refund' })
  async rejectRefund(@Arg('id', () => ID, { description: 'The refund to refuse' }) id: string, @Ctx() ctx: Context) {
    return presentRefund(await ctx.services.commerce.rejectRefund(await viewer(ctx), id));
  }

  @Query(() => RefundConnection, { description: "Refunds of the caller's payments, newest first" })
  async myRefunds(@Args(() => PageArgs) page: PageArgs, @Ctx() ctx: Context) {
    return toConnectionOf(await ctx.services.commerce.refunds(await viewer(ctx), true, page.first, page.after), presentRefund);
  }

  @Query(() => RefundConnection, { description: 'Admins: every refund' })
  async refunds(@Args(() => PageArgs) page: PageArgs, @Ctx() ctx: Context) {
    return toConnectionOf(await ctx.services.commerce.refunds(null, false, page.first, page.after), presentRefund);
  }

  // ledger

  @Query(() => LedgerBalancesView, { description: 'Admins: balance per account and currency' })
  async ledgerBalances(@Ctx() ctx: Context) {
    return { items: await ctx.services.commerce.balances() };
  }
}
