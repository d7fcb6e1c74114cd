import { IsIn, IsOptional, IsUUID, MaxLength } from 'class-validator';
import { Field, GraphQLISODateTime, ID, InputType, Int, ObjectType, registerEnumType } from 'type-graphql';
import { AMOUNT } from '../catalog';
import { LocalizedTextView } from '../kernel/localized';
import { Node } from '../kernel/node';
import { Connection } from '../kernel/pagination';
import { PaymentStatus, PurchaseRequestStatus } from './payments.entity';

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
  valuesConfig: {
    pending: { description: 'Waiting for a guardian' },
    approved: { description: 'A guardian approved and pays' },
    declined: { description: 'A guardian declined' },
  },
});
@ObjectType('Checkout', {
  description: 'A started checkout: the payment to complete, or the request a guardian must approve',
})
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

@ObjectType('CheckoutResult', {
  description: 'A payment to pay, or for a learner under 18 a request their guardians decide',
})
export class CheckoutResultView {
  @Field(() => CheckoutView, {
    nullable: true,
    description: 'The payment to complete; null when a guardian must approve',
  })
  payment!: CheckoutView | null;

  @Field(() => PurchaseRequestRefView, {
    nullable: true,
    description: 'The request sent to the guardians; null when the caller pays',
  })
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

  @Field(() => String, {
    nullable: true,
    description: "Where the payer pays (the provider's page); null for anyone but the payer, its beneficiary included",
  })
  redirectUrl!: string | null;

  @Field(() => GraphQLISODateTime, { description: 'When a pending payment expires if not paid' })
  expiresAt!: Date;

  @Field(() => GraphQLISODateTime, {
    nullable: true,
    description: 'When the provider confirmed the payment; null until then',
  })
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

  @Field(() => String, {
    nullable: true,
    description: 'Where the provider sends the payer back after paying: an address on WEB_ORIGIN or APP_ORIGIN',
  })
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

  @Field(() => GraphQLISODateTime, {
    nullable: true,
    description: 'When a guardian approved or declined; null while pending',
  })
  decidedAt!: Date | null;

  @Field(() => GraphQLISODateTime, { description: 'When the learner asked' })
  createdAt!: Date;
}

export const PurchaseRequestConnection = Connection(PurchaseRequestView, 'PurchaseRequest');

@ObjectType('LedgerBalance', { description: 'The balance of one ledger account in one currency' })
export class LedgerBalanceView {
  @Field(() => String, {
    description:
      'Ledger account, such as customer:<userId>, provider:<name>, revenue:platform or payable:creator:<userId>',
  })
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
