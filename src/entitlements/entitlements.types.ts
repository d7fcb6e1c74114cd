import { IsUUID } from 'class-validator';
import { Field, GraphQLISODateTime, ID, InputType, ObjectType, registerEnumType } from 'type-graphql';
import { Tier } from '../kernel/domain';
import { Node } from '../kernel/node';
import { Connection } from '../kernel/pagination';
import { EntitlementKind, EntitlementSource, EntitlementStatus } from './entitlements.entity';

registerEnumType(EntitlementKind, {
  name: 'EntitlementKind',
  description: 'What an entitlement gives',
  valuesConfig: { course: { description: 'Access to a course' }, tier: { description: 'A subscription tier' } },
});
registerEnumType(EntitlementSource, {
  name: 'EntitlementSource',
  description: 'Where an entitlement comes from',
  valuesConfig: {
    purchase: { description: 'A payment' },
    grant: { description: 'An admin gave it' },
    school: { description: "The learner's school" },
  },
});
registerEnumType(EntitlementStatus, {
  name: 'EntitlementStatus',
  description: 'Where an entitlement stands',
  valuesConfig: {
    active: { description: 'In force' },
    expired: { description: 'Its period ended' },
    revoked: { description: 'Taken back (a refund, an admin)' },
  },
});

@ObjectType('Entitlement', {
  description: 'What an account may use: a course or a tier, from a purchase, a grant or a school',
  implements: Node,
})
export class EntitlementView implements Node {
  @Field(() => ID, { description: 'Identifier of the entitlement' })
  id!: string;

  @Field(() => EntitlementKind, { description: 'Whether it gives a course or a tier' })
  kind!: EntitlementKind;

  @Field(() => Tier, { nullable: true, description: 'The tier it gives; null for a course' })
  tier!: Tier | null;

  @Field(() => ID, { nullable: true, description: 'The course it opens; null for a tier' })
  courseId!: string | null;

  @Field(() => EntitlementSource, { description: "Where it comes from: a purchase, an admin's grant or a school" })
  source!: EntitlementSource;

  @Field(() => ID, { nullable: true, description: 'The payment it came from; null for a grant or a school' })
  paymentId!: string | null;

  @Field(() => GraphQLISODateTime, { description: 'When it took effect' })
  startsAt!: Date;

  @Field(() => GraphQLISODateTime, { nullable: true, description: 'When it ends; null when it does not end' })
  endsAt!: Date | null;

  @Field(() => EntitlementStatus, { description: 'Whether it is active, expired or revoked' })
  status!: EntitlementStatus;
}

/** An account's entitlements, newest first. */
export const EntitlementConnection = Connection(EntitlementView, 'Entitlement');

@ObjectType('MyEntitlements', { description: "The caller's tier and everything they may use" })
export class MyEntitlementsView {
  @Field(() => Tier, { description: "The caller's tier now" })
  tier!: Tier;

  @Field(() => [EntitlementView], { description: 'Everything the caller may use, active or not' })
  items!: EntitlementView[];
}

@InputType({ description: 'What an admin grants an account: a course or a tier' })
export class GrantInput {
  @Field(() => ID, { description: 'The account that gets the entitlement' })
  @IsUUID(undefined, { message: 'must be a user id' })
  userId!: string;

  @Field(() => EntitlementKind, { description: 'Whether a course or a tier is granted' })
  kind!: EntitlementKind;

  @Field(() => Tier, { nullable: true, description: 'The tier to give, for a tier entitlement' })
  tier?: Tier | null;

  @Field(() => ID, { nullable: true, description: 'The course to open, for a course entitlement' })
  courseId?: string | null;

  @Field(() => GraphQLISODateTime, {
    nullable: true,
    description: 'When the entitlement ends; it does not end when omitted',
  })
  endsAt?: Date | null;
}
