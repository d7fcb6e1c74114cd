import { ArrayMaxSize, ArrayMinSize, IsIn, IsOptional, IsUUID, Length, Matches, Max, MaxLength, Min, ValidateNested } from 'class-validator';
import { Node } from '../kernel/node';
import { ArgsType, Field, GraphQLISODateTime, ID, InputType, Int, ObjectType, registerEnumType } from 'type-graphql';
import { LocalizedTextInput, LocalizedTextView } from '../courses';
import { Tier } from '../kernel/domain';
import { Connection, PageArgs } from '../kernel/pagination';
import { EntitlementKind, EntitlementSource, EntitlementStatus, PaymentStatus, PriceInterval, ProductKind, ProductStatus, PurchaseRequestStatus, RefundStatus } from './commerce.entity';

registerEnumType(ProductKind, {
  name: 'ProductKind',
  description: 'What a product sells',
  valuesConfig: {
    subscription: { description: 'A tier, paid every interval' },
    course: { description: 'Access to one or more courses, paid once' },
    bundle: { description: 'Several courses together, paid once' },
  },
});
registerEnumType(ProductStatus, {
  name: 'ProductStatus',
  description: 'Where a product stands',
  valuesConfig: {
    draft: { description: 'Being written; not for sale' },
    in_review: { description: 'A listing waiting for a content admin' },
    published: { description: 'For sale' },
    rejected: { description: 'A listing a content admin refused' },
    archived: { description: 'No longer sold; what was bought stays' },
  },
});
registerEnumType(PriceInterval, {
  name: 'PriceInterval',
  description: 'How often a subscription is paid',
  valuesConfig: { month: { description: 'Every month' }, year: { description: 'Every year' } },
});
registerEnumType(PaymentStatus, {
  name: 'PaymentStatus',
  description: 'Where a payment stands',
  valuesConfig: {
    pending: { description: 'Started; the provider has not confirmed it' },
    succeeded: { description: 'Paid' },
    failed: { description: 'The provider refused it' },
    canceled: { description: 'The payer canceled it' },
    expired: { description: 'Not paid in time' },
    partially_refunded: { description: 'Paid, and part of it refunded' },
    refunded: { description: 'Paid, and refunded in full' },
  },
});
registerEnumType(EntitlementKind, {
  name: 'EntitlementKind',
  description: 'What an entitlement gives',
  valuesConfig: { course: { description: 'Access to a course' }, tier: { description: 'A subscription tier' } },
});
registerEnumType(EntitlementSource, {
  name: 'EntitlementSource',
  description: 'Where an entitlement comes from',
  valuesConfig: { purchase: { description: 'A payment' }, grant: { description: 'An admin gave it' }, school: { description: "The learner's school" } },
});
registerEnumType(EntitlementStatus, {
  name: 'EntitlementStatus',
  description: 'Where an entitlement stands',
  valuesConfig: { active: { description: 'In force' }, expired: { description: 'Its period ended' }, revoked: { description: 'Taken back (a refund, an admin)' } },
});
registerEnumType(PurchaseRequestStatus, {
  name: 'PurchaseRequestStatus',
  description: "Where a minor's request to buy stands",
  valuesConfig: { pending: { description: 'Waiting for a guardian' }, approved: { description: 'A guardian approved and pays' }, declined: { description: 'A guardian declined' } },
});
registerEnumType(RefundStatus, {
  name: 'RefundStatus',
  description: 'Where a refund stands',
  valuesConfig: {
    requested: { description: 'Asked for; an admin decides' },
    processing: { description: 'Approved; the provider is refunding' },
    succeeded: { description: 'Refunded' },
    rejected: { description: 'An admin refused it' },
    failed: { description: 'The provider could not refund' },
  },
});

const AMOUNT = 'An integer in minor units of the currency (VND has none; USD cents)';

@ObjectType('Price', { description: 'A price of a product in one currency' })
export class PriceView {
  @Field(() => ID)
  id!: string;

  @Field(() => String, { description: 'ISO 4217' })
  currency!: string;

  @Field(() => Int, { description: AMOUNT })
  amount!: number;

  @Field(() => PriceInterval, { nullable: true })
  interval!: PriceInterval | null;
}

@ObjectType('Seller', { description: 'The creator who sells a listing' })
export class SellerView {
  @Field(() => ID)
  id!: string;

  @Field(() => String)
  displayName!: string;
}

@ObjectType('Product', { description: 'Something the platform sells: a subscription, a course or a bundle', implements: Node })
export class ProductView implements Node {
  @Field(() => ID)
  id!: string;

  @Field(() => ProductKind)
  kind!: ProductKind;

  @Field(() => LocalizedTextView)
  title!: LocalizedTextView;

  @Field(() => LocalizedTextView)
  description!: LocalizedTextView;

  @Field(() => [PriceView])
  prices!: PriceView[];

  @Field(() => Tier, { nullable: true, description: 'What a subscription gives' })
  tier!: Tier | null;

  @Field(() => [ID])
  courseIds!: string[];

  @Field(() => ID, { nullable: true, description: 'Null: the platform sells it' })
  sellerId!: string | null;

  @Field(() => SellerView, { nullable: true })
  seller!: SellerView | null;

  @Field(() => Int, { description: 'Successful payments' })
  sales!: number;

  @Field(() => ProductStatus)
  status!: ProductStatus;

  @Field(() => String, { nullable: true, description: 'Why a listing was rejected' })
  reviewReason!: string | null;

  @Field(() => GraphQLISODateTime)
  createdAt!: Date;
}

export const ProductConnection = Connection(ProductView, 'Product');

@InputType({ description: 'A price of a product in one currency' })
export class PriceInput {
  @Field(() => String)
  @Matches(/^[A-Z]{3}$/, { message: 'must be an ISO 4217 code such as VND or USD' })
  currency!: string;

  @Field(() => Int, { description: AMOUNT })
  @Min(1)
  @Max(2_000_000_000)
  amount!: number;

  @Field(() => PriceInterval, { nullable: true })
  interval?: PriceInterval | null;
}

@InputType({ description: 'A product to create or a listing to submit' })
export class ProductInput {
  @Field(() => ProductKind)
  kind!: ProductKind;

  @Field(() => LocalizedTextInput)
  @ValidateNested()
  title!: LocalizedTextInput;

  @Field(() => LocalizedTextInput)
  @ValidateNested()
  description!: LocalizedTextInput;

  @Field(() => [PriceInput])
  @ArrayMinSize(1)
  @ArrayMaxSize(10)
  @ValidateNested({ each: true })
  prices!: PriceInput[];

  @Field(() => Tier, { nullable: true })
  tier?: Tier | null;

  @Field(() => [ID], { nullable: true })
  @IsOptional()
  @ArrayMaxSize(50)
  courseIds?: string[] | null;
}

@InputType({ description: 'Changes to a product' })
export class ProductChangeInput {
  @Field(() => LocalizedTextInput, { nullable: true })
  @IsOptional()
  @ValidateNested()
  title?: LocalizedTextInput | null;

  @Field(() => LocalizedTextInput, { nullable: true })
  @IsOptional()
  @ValidateNested()
  description?: LocalizedTextInput | null;

  @Field(() => [PriceInput], { nullable: true })
  @IsOptional()
  @ArrayMinSize(1)
  @ArrayMaxSize(10)
  @ValidateNested({ each: true })
  prices?: PriceInput[] | null;

  @Field(() => Tier, { nullable: true })
  tier?: Tier | null;

  @Field(() => [ID], { nullable: true })
  @IsOptional()
  @ArrayMaxSize(50)
  courseIds?: string[] | null;
}

@ArgsType()
export class MarketplaceArgs extends PageArgs {
  @Field(() => String, { nullable: true, description: 'Words of the title or description' })
  @IsOptional()
  @MaxLength(100)
  q?: string | null;

  @Field(() => ProductKind, { nullable: true })
  kind?: ProductKind | null;

  @Field(() => Int, { nullable: true, description: 'In minor units of `currency`' })
  @IsOptional()
  @Min(0)
  minPrice?: number | null;

  @Field(() => Int, { nullable: true })
  @IsOptional()
  @Min(0)
  maxPrice?: number | null;

  @Field(() => String, { nullable: true })
  @IsOptional()
  @Matches(/^[A-Z]{3}$/, { message: 'must be an ISO 4217 code' })
  currency?: string | null;

  @Field(() => String, { nullable: true, description: 'popular | newest | price_asc | price_desc' })
  @IsOptional()
  @IsIn(['popular', 'newest', 'price_asc', 'price_desc'], { message: 'must be popular, newest, price_asc or price_desc' })
  sort?: 'popular' | 'newest' | 'price_asc' | 'price_desc' | null;
}

@ObjectType('Checkout', { description: 'A started checkout: the payment to complete, or the request a guardian must approve' })
export class CheckoutView {
  @Field(() => ID)
  id!: string;

  @Field(() => PaymentStatus)
  status!: PaymentStatus;

  @Field(() => String)
  provider!: string;

  @Field(() => Int, { description: AMOUNT })
  amount!: number;

  @Field(() => String)
  currency!: string;

  @Field(() => String, { nullable: true, description: "Where the payer pays (the provider's page)" })
  redirectUrl!: string | null;

  @Field(() => GraphQLISODateTime)
  expiresAt!: Date;
}

@ObjectType('PurchaseRequestRef', { description: 'A purchase request as a checkout answers it' })
export class PurchaseRequestRefView {
  @Field(() => ID)
  id!: string;

  @Field(() => PurchaseRequestStatus)
  status!: PurchaseRequestStatus;

  @Field(() => ID)
  productId!: string;
}

@ObjectType('CheckoutResult', { description: 'A payment to pay, or for a learner under 18 a request their guardians decide' })
export class CheckoutResultView {
  @Field(() => CheckoutView, { nullable: true })
  payment!: CheckoutView | null;

  @Field(() => PurchaseRequestRefView, { nullable: true })
  purchaseRequest!: PurchaseRequestRefView | null;
}

@ObjectType('Payment', { description: 'A payment through a provider', implements: Node })
export class PaymentView implements Node {
  @Field(() => ID)
  id!: string;

  @Field(() => PaymentStatus)
  status!: PaymentStatus;

  @Field(() => String)
  provider!: string;

  @Field(() => Int, { description: AMOUNT })
  amount!: number;

  @Field(() => String)
  currency!: string;

  @Field(() => Int, { description: 'Refunded so far, minor units' })
  refundedAmount!: number;

  @Field(() => ID)
  productId!: string;

  @Field(() => ID)
  priceId!: string;

  @Field(() => ID)
  payerId!: string;

  @Field(() => ID)
  beneficiaryId!: string;

  @Field(() => String, { nullable: true, description: "Where the payer pays (the provider's page); null for anyone but the payer, its beneficiary included" })
  redirectUrl!: string | null;

  @Field(() => GraphQLISODateTime)
  expiresAt!: Date;

  @Field(() => GraphQLISODateTime, { nullable: true })
  succeededAt!: Date | null;

  @Field(() => GraphQLISODateTime)
  createdAt!: Date;
}

export const PaymentConnection = Connection(PaymentView, 'Payment');

@InputType({ description: 'What to buy, at which price, with which provider' })
export class CheckoutInput {
  @Field(() => ID)
  productId!: string;

  @Field(() => ID)
  priceId!: string;

  @Field(() => String, { nullable: true, description: 'stripe | vnpay | momo | sandbox; the default when omitted' })
  @IsOptional()
  @IsIn(['stripe', 'vnpay', 'momo', 'sandbox'], { message: 'must be stripe, vnpay, momo or sandbox' })
  provider?: string | null;

  @Field(() => String, { nullable: true })
  @IsOptional()
  @MaxLength(2000)
  returnUrl?: string | null;

  @Field(() => ID, { nullable: true, description: 'A guardian paying for a linked learner' })
  @IsOptional()
  @IsUUID(undefined, { message: 'must be a learner id' })
  learnerId?: string | null;
}

@ObjectType('PurchaseRequest', { description: "A minor's request that a guardian buy a product", implements: Node })
export class PurchaseRequestView implements Node {
  @Field(() => ID)
  id!: string;

  @Field(() => PurchaseRequestStatus)
  status!: PurchaseRequestStatus;

  @Field(() => ID)
  productId!: string;

  @Field(() => ID)
  priceId!: string;

  @Field(() => ID)
  learnerId!: string;

  @Field(() => String)
  learnerName!: string;

  @Field(() => LocalizedTextView)
  productTitle!: LocalizedTextView;

  @Field(() => ID, { nullable: true })
  paymentId!: string | null;

  @Field(() => GraphQLISODateTime, { nullable: true })
  decidedAt!: Date | null;

  @Field(() => GraphQLISODateTime)
  createdAt!: Date;
}

export const PurchaseRequestConnection = Connection(PurchaseRequestView, 'PurchaseRequest');

@ObjectType('Entitlement', { description: 'What an account may use: a course or a tier, from a purchase, a grant or a school', implements: Node })
export class EntitlementView implements Node {
  @Field(() => ID)
  id!: string;

  @Field(() => EntitlementKind)
  kind!: EntitlementKind;

  @Field(() => Tier, { nullable: true })
  tier!: Tier | null;

  @Field(() => ID, { nullable: true })
  courseId!: string | null;

  @Field(() => EntitlementSource)
  source!: EntitlementSource;

  @Field(() => ID, { nullable: true })
  paymentId!: string | null;

  @Field(() => GraphQLISODateTime)
  startsAt!: Date;

  @Field(() => GraphQLISODateTime, { nullable: true })
  endsAt!: Date | null;

  @Field(() => EntitlementStatus)
  status!: EntitlementStatus;
}

/** An account's entitlements, newest first. */
export const EntitlementConnection = Connection(EntitlementView, 'Entitlement');

@ObjectType('MyEntitlements', { description: "The caller's tier and everything they may use" })
export class MyEntitlementsView {
  @Field(() => Tier)
  tier!: Tier;

  @Field(() => [EntitlementView])
  items!: EntitlementView[];
}

@InputType({ description: 'What an admin grants an account: a course or a tier' })
export class GrantInput {
  @Field(() => ID)
  @IsUUID(undefined, { message: 'must be a user id' })
  userId!: string;

  @Field(() => EntitlementKind)
  kind!: EntitlementKind;

  @Field(() => Tier, { nullable: true })
  tier?: Tier | null;

  @Field(() => ID, { nullable: true })
  courseId?: string | null;

  @Field(() => GraphQLISODateTime, { nullable: true })
  endsAt?: Date | null;
}

@ObjectType('Refund', { description: 'A refund of a payment, whole or in part', implements: Node })
export class RefundView implements Node {
  @Field(() => ID)
  id!: string;

  @Field(() => ID)
  paymentId!: string;

  @Field(() => RefundStatus)
  status!: RefundStatus;

  @Field(() => Int, { description: AMOUNT })
  amount!: number;

  @Field(() => String)
  currency!: string;

  @Field(() => String)
  reason!: string;

  @Field(() => GraphQLISODateTime)
  createdAt!: Date;
}

export const RefundConnection = Connection(RefundView, 'Refund');

@InputType({ description: 'A refund to request: how much and why' })
export class RefundInput {
  @Field(() => ID)
  @IsUUID(undefined, { message: 'must be a payment id' })
  paymentId!: string;

  @Field(() => Int, { nullable: true, description: 'Minor units; the whole remaining amount when omitted' })
  @IsOptional()
  @Min(1)
  amount?: number | null;

  @Field(() => String)
  @Length(1, 1000)
  reason!: string;
}

@ObjectType('LedgerBalance', { description: 'The balance of one ledger account in one currency' })
export class LedgerBalanceView {
  @Field(() => String)
  account!: string;

  @Field(() => String)
  currency!: string;

  @Field(() => Int, { description: 'Debits minus credits, minor units' })
  balance!: number;

  @Field(() => Int)
  entries!: number;
}

@ObjectType('LedgerBalances', { description: 'The balances of the ledger accounts' })
export class LedgerBalancesView {
  @Field(() => [LedgerBalanceView])
  items!: LedgerBalanceView[];
}

@ObjectType('Sale', { description: 'One sale of a listing' })
export class SaleView {
  @Field(() => ID)
  paymentId!: string;

  @Field(() => ID)
  productId!: string;

  @Field(() => LocalizedTextView)
  title!: LocalizedTextView;

  @Field(() => Int)
  amount!: number;

  @Field(() => Int)
  refunded!: number;

  @Field(() => String)
  currency!: string;

  @Field(() => Int, { description: "The platform's fee" })
  fee!: number;

  @Field(() => Int, { description: 'What the creator earns: amount less refunds less the fee' })
  earnings!: number;

  @Field(() => GraphQLISODateTime)
  soldAt!: Date;
}

@ObjectType('SalesTotal', { description: "A creator's sales in one currency" })
export class SalesTotalView {
  @Field(() => String)
  currency!: string;

  @Field(() => Int)
  amount!: number;

  @Field(() => Int)
  earnings!: number;

  @Field(() => Int)
  sales!: number;
}

@ObjectType('MySales', { description: "A creator's sales and earnings" })
export class MySalesView {
  @Field(() => Int)
  feePercent!: number;

  @Field(() => [SaleView])
  items!: SaleView[];

  @Field(() => [SalesTotalView])
  totals!: SalesTotalView[];
}

@InputType({ description: "A content admin's reason for refusing a listing" })
export class ListingReviewInput {
  @Field(() => String, { nullable: true })
  @IsOptional()
  @MaxLength(1000)
  reason?: string | null;
}
