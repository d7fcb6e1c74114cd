import { IsOptional, IsUUID, Length, Min } from 'class-validator';
import { Field, GraphQLISODateTime, ID, InputType, Int, ObjectType, registerEnumType } from 'type-graphql';
import { AMOUNT } from '../catalog';
import { Node } from '../kernel/node';
import { Connection } from '../kernel/pagination';
import { RefundStatus } from './refunds.entity';

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
