import { ArrayMaxSize, ArrayMinSize, IsIn, IsOptional, IsUUID, Length, Matches, Max, MaxLength, Min, ValidateNested } from 'class-validator';
import { Node } from '../kernel/node';
import { ArgsType, Field, GraphQLISODateTime, ID, InputType, Int, ObjectType, registerEnumType } from 'type-graphql';
import { Tier } from '../kernel/domain';
import { Connection, PageArgs } from '../kernel/pagination';
import { PaymentStatus, PriceInterval, ProductKind, ProductStatus, PurchaseRequestStatus, RefundStatus } from './commerce.entity';
import { LocalizedTextInput, LocalizedTextView } from '../kernel/localized';

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
  @Field(() => ID, { description: 'Identifier of the price' })
  id!: string;

  @Field(() => String, { description: 'ISO 4217' })
  currency!: string;

  @Field(() => Int, { description: AMOUNT })
  amount!: number;

  @Field(() => PriceInterval, { nullable: true, description: 'How often a subscription is paid; null for a one-time price' })
  interval!: PriceInterval | null;
}

@ObjectType('Seller', { description: 'The creator who sells a listing' })
export class SellerView {
  @Field(() => ID, { description: 'Account of the creator' })
  id!: string;

  @Field(() => String, { description: 'Name of the creator shown to others' })
  displayName!: string;
}

@ObjectType('Product', { description: 'Something the platform sells: a subscription, a course or a bundle', implements: Node })
export class ProductView implements Node {
  @Field(() => ID, { description: 'Identifier of the product' })
  id!: string;

  @Field(() => ProductKind, { description: 'Whether it sells a subscription, a course or a bundle' })
  kind!: ProductKind;

  @Field(() => LocalizedTextView, { description: 'Title of the product in each language' })
  title!: LocalizedTextView;

  @Field(() => LocalizedTextView, { description: 'What the product offers, in each language' })
  description!: LocalizedTextView;

  @Field(() => [PriceView], { description: 'Its prices, one per currency and interval' })
  prices!: PriceView[];

  @Field(() => Tier, { nullable: true, description: 'What a subscription gives' })
  tier!: Tier | null;

  @Field(() => [ID], { description: 'Courses the product opens; empty for a subscription' })
  courseIds!: string[];

  @Field(() => ID, { nullable: true, description: 'Null: the platform sells it' })
  sellerId!: string | null;

  @Field(() => SellerView, { nullable: true, description: 'The creator who sells it; null when the platform sells it' })
  seller!: SellerView | null;

  @Field(() => Int, { description: 'Successful payments' })
  sales!: number;

  @Field(() => ProductStatus, { description: 'Where the product stands, from draft to archived' })
  status!: ProductStatus;

  @Field(() => String, { nullable: true, description: 'Why a listing was rejected' })
  reviewReason!: string | null;

  @Field(() => GraphQLISODateTime, { description: 'When the product was created' })
  createdAt!: Date;
}

export const ProductConnection = Connection(ProductView, 'Product');

@InputType({ description: 'A price of a product in one currency' })
export class PriceInput {
  @Field(() => String, { description: 'Currency, ISO 4217' })
  @Matches(/^[A-Z]{3}$/, { message: 'must be an ISO 4217 code such as VND or USD' })
  currency!: string;

  @Field(() => Int, { description: AMOUNT })
  @Min(1)
  @Max(2_000_000_000)
  amount!: number;

  @Field(() => PriceInterval, { nullable: true, description: 'How often a subscription is paid; null for a one-time price' })
  interval?: PriceInterval | null;
}

@InputType({ description: 'A product to create or a listing to submit' })
export class ProductInput {
  @Field(() => ProductKind, { description: 'Whether it sells a subscription, a course or a bundle' })
  kind!: ProductKind;

  @Field(() => LocalizedTextInput, { description: 'Title of the product in each language' })
  @ValidateNested()
  title!: LocalizedTextInput;

  @Field(() => LocalizedTextInput, { description: 'What the product offers, in each language' })
  @ValidateNested()
  description!: LocalizedTextInput;

  @Field(() => [PriceInput], { description: 'Its prices, at most 10' })
  @ArrayMinSize(1)
  @ArrayMaxSize(10)
  @ValidateNested({ each: true })
  prices!: PriceInput[];

  @Field(() => Tier, { nullable: true, description: 'Tier a subscription gives; required for a subscription' })
  tier?: Tier | null;

  @Field(() => [ID], { nullable: true, description: 'Courses a course or bundle opens, at most 50' })
  @IsOptional()
  @ArrayMaxSize(50)
  courseIds?: string[] | null;
}

@InputType({ description: 'Changes to a product' })
export class ProductChangeInput {
  @Field(() => LocalizedTextInput, { nullable: true, description: 'New title in each language; kept when omitted' })
  @IsOptional()
  @ValidateNested()
  title?: LocalizedTextInput | null;

  @Field(() => LocalizedTextInput, { nullable: true, description: 'New description in each language; kept when omitted' })
  @IsOptional()
  @ValidateNested()
  description?: LocalizedTextInput | null;

  @Field(() => [PriceInput], { nullable: true, description: 'New prices, at most 10, replacing the old ones; kept when omitted' })
  @IsOptional()
  @ArrayMinSize(1)
  @ArrayMaxSize(10)
  @ValidateNested({ each: true })
  prices?: PriceInput[] | null;

  @Field(() => Tier, { nullable: true, description: 'Tier a subscription gives; kept when omitted' })
  tier?: Tier | null;

  @Field(() => [ID], { nullable: true, description: 'Courses the product opens, at most 50; kept when omitted' })
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

  @Field(() => ProductKind, { nullable: true, description: 'Only products of this kind' })
  kind?: ProductKind | null;

  @Field(() => Int, { nullable: true, description: 'In minor units of `currency`' })
  @IsOptional()
  @Min(0)
  minPrice?: number | null;

  @Field(() => Int, { nullable: true, description: 'Highest price, in minor units of currency' })
  @IsOptional()
  @Min(0)
  maxPrice?: number | null;

  @Field(() => String, { nullable: true, description: 'Currency of the price range, ISO 4217' })
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
  @Field(() => ID, { description: 'Identifier of the payment' })
  id!: string;

  @Field(() => PaymentStatus, { description: 'Where the payment stands; pending at first' })
  status!: PaymentStatus;

  @Field(() => String, { description: 'Payment provider: stripe, vnpay, momo or sandbox' })
  provider!: string;

  @Field(() => Int, { description: AMOUNT })
  amount!: number;

  @Field(() => String, { description: 'Currency, ISO 4217' })
  currency!: string;

  @Field(() => String, { nullable: true, description: "Where the payer pays (the provider's page)" })
  redirectUrl!: string | null;

  @Field(() => GraphQLISODateTime, { description: 'When the payment expires if not paid' })
  expiresAt!: Date;
}

@ObjectType('PurchaseRequestRef', { description: 'A purchase request as a checkout answers it' })
export class PurchaseRequestRefView {
  @Field(() => ID, { description: 'Identifier of the purchase request' })
  id!: string;

  @Field(() => PurchaseRequestStatus, { description: 'Where the request stands; pending at first' })
  status!: PurchaseRequestStatus;

  @Field(() => ID, { description: 'The product asked for' })
  productId!: string;
}

@ObjectType('CheckoutResult', { description: 'A payment to pay, or for a learner under 18 a request their guardians decide' })
export class CheckoutResultView {
  @Field(() => CheckoutView, { nullable: true, description: 'The payment to complete; null when a guardian must approve' })
  payment!: CheckoutView | null;

  @Field(() => PurchaseRequestRefView, { nullable: true, description: 'The request sent to the guardians; null when the caller pays' })
  purchaseRequest!: PurchaseRequestRefView | null;
}

@ObjectType('Payment', { description: 'A payment through a provider', implements: Node })
export class PaymentView implements Node {
  @Field(() => ID, { description: 'Identifier of the payment' })
  id!: string;

  @Field(() => PaymentStatus, { description: 'Where the payment stands' })
  status!: PaymentStatus;

  @Field(() => String, { description: 'Payment provider: stripe, vnpay, momo or sandbox' })
  provider!: string;

  @Field(() => Int, { description: AMOUNT })
  amount!: number;

  @Field(() => String, { description: 'Currency, ISO 4217' })
  currency!: string;

  @Field(() => Int, { description: 'Refunded so far, minor units' })
  refundedAmount!: number;

  @Field(() => ID, { description: 'The product bought' })
  productId!: string;

  @Field(() => ID, { description: 'The price paid' })
  priceId!: string;

  @Field(() => ID, { description: 'Account that pays' })
  payerId!: string;

  @Field(() => ID, { description: 'Account that gets what was bought; the payer unless a guardian pays for a learner' })
  beneficiaryId!: string;

  @Field(() => String, { nullable: true, description: "Where the payer pays (the provider's page); null for anyone but the payer, its beneficiary included" })
  redirectUrl!: string | null;

  @Field(() => GraphQLISODateTime, { description: 'When a pending payment expires if not paid' })
  expiresAt!: Date;

  @Field(() => GraphQLISODateTime, { nullable: true, description: 'When the provider confirmed the payment; null until then' })
  succeededAt!: Date | null;

  @Field(() => GraphQLISODateTime, { description: 'When the checkout started' })
  createdAt!: Date;
}

export const PaymentConnection = Connection(PaymentView, 'Payment');

@InputType({ description: 'What to buy, at which price, with which provider' })
export class CheckoutInput {
  @Field(() => ID, { description: 'The product to buy' })
  productId!: string;

  @Field(() => ID, { description: 'The price of the product to pay' })
  priceId!: string;

  @Field(() => String, { nullable: true, description: 'stripe | vnpay | momo | sandbox; the default when omitted' })
  @IsOptional()
  @IsIn(['stripe', 'vnpay', 'momo', 'sandbox'], { message: 'must be stripe, vnpay, momo or sandbox' })
  provider?: string | null;

  @Field(() => String, { nullable: true, description: 'Where the provider sends the payer back after paying, an http(s) URL' })
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
  @Field(() => ID, { description: 'Identifier of the purchase request' })
  id!: string;

  @Field(() => PurchaseRequestStatus, { description: 'Whether it waits for a guardian, was approved or was declined' })
  status!: PurchaseRequestStatus;

  @Field(() => ID, { description: 'The product the learner wants' })
  productId!: string;

  @Field(() => ID, { description: 'The price the learner chose' })
  priceId!: string;

  @Field(() => ID, { description: 'The learner who asked' })
  learnerId!: string;

  @Field(() => String, { description: 'Name of the learner who asked' })
  learnerName!: string;

  @Field(() => LocalizedTextView, { description: 'Title of the product in each language' })
  productTitle!: LocalizedTextView;

  @Field(() => ID, { nullable: true, description: "The guardian's payment once approved; null until then" })
  paymentId!: string | null;

  @Field(() => GraphQLISODateTime, { nullable: true, description: 'When a guardian approved or declined; null while pending' })
  decidedAt!: Date | null;

  @Field(() => GraphQLISODateTime, { description: 'When the learner asked' })
  createdAt!: Date;
}

export const PurchaseRequestConnection = Connection(PurchaseRequestView, 'PurchaseRequest');

@ObjectType('Refund', { description: 'A refund of a payment, whole or in part', implements: Node })
export class RefundView implements Node {
  @Field(() => ID, { description: 'Identifier of the refund' })
  id!: string;

  @Field(() => ID, { description: 'The payment refunded' })
  paymentId!: string;

  @Field(() => RefundStatus, { description: 'Where the refund stands' })
  status!: RefundStatus;

  @Field(() => Int, { description: AMOUNT })
  amount!: number;

  @Field(() => String, { description: 'Currency, ISO 4217' })
  currency!: string;

  @Field(() => String, { description: 'Why the refund was asked for' })
  reason!: string;

  @Field(() => GraphQLISODateTime, { description: 'When the refund was requested' })
  createdAt!: Date;
}

export const RefundConnection = Connection(RefundView, 'Refund');

@InputType({ description: 'A refund to request: how much and why' })
export class RefundInput {
  @Field(() => ID, { description: 'The payment to refund' })
  @IsUUID(undefined, { message: 'must be a payment id' })
  paymentId!: string;

  @Field(() => Int, { nullable: true, description: 'Minor units; the whole remaining amount when omitted' })
  @IsOptional()
  @Min(1)
  amount?: number | null;

  @Field(() => String, { description: 'Why the refund is asked for, 1 to 1,000 characters' })
  @Length(1, 1000)
  reason!: string;
}

@ObjectType('LedgerBalance', { description: 'The balance of one ledger account in one currency' })
export class LedgerBalanceView {
  @Field(() => String, { description: 'Ledger account, such as customer:<userId>, provider:<name>, revenue:platform or payable:creator:<userId>' })
  account!: string;

  @Field(() => String, { description: 'Currency, ISO 4217' })
  currency!: string;

  @Field(() => Int, { description: 'Debits minus credits, minor units' })
  balance!: number;

  @Field(() => Int, { description: 'Number of ledger entries on the account in this currency' })
  entries!: number;
}

@ObjectType('LedgerBalances', { description: 'The balances of the ledger accounts' })
export class LedgerBalancesView {
  @Field(() => [LedgerBalanceView], { description: 'Balance of each ledger account per currency' })
  items!: LedgerBalanceView[];
}

@ObjectType('Sale', { description: 'One sale of a listing' })
export class SaleView {
  @Field(() => ID, { description: 'The payment of the sale' })
  paymentId!: string;

  @Field(() => ID, { description: 'The listing sold' })
  productId!: string;

  @Field(() => LocalizedTextView, { description: 'Title of the listing in each language' })
  title!: LocalizedTextView;

  @Field(() => Int, { description: 'Amount paid, in minor units of the currency' })
  amount!: number;

  @Field(() => Int, { description: 'Amount refunded so far, in minor units of the currency' })
  refunded!: number;

  @Field(() => String, { description: 'Currency, ISO 4217' })
  currency!: string;

  @Field(() => Int, { description: "The platform's fee" })
  fee!: number;

  @Field(() => Int, { description: 'What the creator earns: amount less refunds less the fee' })
  earnings!: number;

  @Field(() => GraphQLISODateTime, { description: 'When the payment succeeded' })
  soldAt!: Date;
}

@ObjectType('SalesTotal', { description: "A creator's sales in one currency" })
export class SalesTotalView {
  @Field(() => String, { description: 'Currency, ISO 4217' })
  currency!: string;

  @Field(() => Int, { description: 'Amount paid in total, in minor units of the currency' })
  amount!: number;

  @Field(() => Int, { description: 'What the creator earns in total, in minor units of the currency' })
  earnings!: number;

  @Field(() => Int, { description: 'Number of sales' })
  sales!: number;
}

@ObjectType('MySales', { description: "A creator's sales and earnings" })
export class MySalesView {
  @Field(() => Int, { description: "The platform's fee, in percent of each sale" })
  feePercent!: number;

  @Field(() => [SaleView], { description: "Each sale of the creator's listings, newest first" })
  items!: SaleView[];

  @Field(() => [SalesTotalView], { description: 'Sales and earnings per currency' })
  totals!: SalesTotalView[];
}

@InputType({ description: "A content admin's reason for refusing a listing" })
export class ListingReviewInput {
  @Field(() => String, { nullable: true, description: "The reviewer's reason, at most 1,000 characters; required to reject" })
  @IsOptional()
  @MaxLength(1000)
  reason?: string | null;
}
