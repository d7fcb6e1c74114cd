import { Node } from '../kernel/node';
import { IsOptional, IsUUID, MaxLength } from 'class-validator';
import { GraphQLJSONObject } from 'graphql-scalars';
import { ArgsType, Field, Float, GraphQLISODateTime, ID, InputType, Int, ObjectType } from 'type-graphql';
import { AccountStatus, Role, UserConnection } from '../auth';
import { Connection, PageArgs } from '../kernel/pagination';
import { RoleChangeAction } from './role-change.entity';
import { registerEnumType } from 'type-graphql';

registerEnumType(RoleChangeAction, {
  name: 'RoleChangeAction',
  description: 'What an admin did to a role',
  valuesConfig: { granted: { description: 'The role was given' }, removed: { description: 'The role was taken away' } },
});

export { UserConnection };

@InputType({ description: 'Which accounts to list' })
export class UserFilterInput {
  @Field(() => Role, { nullable: true })
  role?: Role | null;

  @Field(() => AccountStatus, { nullable: true })
  status?: AccountStatus | null;

  @Field(() => String, { nullable: true, description: 'Part of the e-mail address' })
  @IsOptional()
  @MaxLength(254)
  email?: string | null;
}

@ArgsType()
export class UsersArgs extends PageArgs {
  @Field(() => UserFilterInput, { nullable: true })
  filter?: UserFilterInput | null;
}

@ObjectType({ description: "One change of an account's roles, and who made it", implements: Node })
export class RoleChangeView implements Node {
  @Field(() => ID)
  id!: string;

  @Field(() => Role)
  role!: Role;

  @Field(() => RoleChangeAction)
  action!: RoleChangeAction;

  @Field(() => ID, { nullable: true, description: 'Null when made from the command line' })
  actorId!: string | null;

  @Field(() => GraphQLISODateTime)
  createdAt!: Date;
}

@ObjectType({ description: 'One recorded action of the audit log: who did what to what, when', implements: Node })
export class AuditEntryView implements Node {
  @Field(() => ID)
  id!: string;

  @Field(() => ID, { nullable: true, description: 'Null for the command line and the system' })
  actorId!: string | null;

  @Field(() => String, { nullable: true })
  actorEmail!: string | null;

  @Field(() => String, { description: '<area>.<verb>, e.g. admin.user_suspended' })
  action!: string;

  @Field(() => String, { nullable: true })
  targetType!: string | null;

  @Field(() => String, { nullable: true })
  targetId!: string | null;

  @Field(() => GraphQLJSONObject)
  data!: Record<string, unknown>;

  @Field(() => GraphQLISODateTime)
  createdAt!: Date;
}

export const AuditEntryConnection = Connection(AuditEntryView, 'AuditEntry');

@ArgsType()
export class AuditArgs extends PageArgs {
  @Field(() => ID, { nullable: true })
  @IsOptional()
  @IsUUID()
  actorId?: string | null;

  @Field(() => String, { nullable: true })
  @IsOptional()
  @MaxLength(100)
  action?: string | null;

  @Field(() => String, { nullable: true })
  @IsOptional()
  @MaxLength(100)
  targetType?: string | null;

  @Field(() => String, { nullable: true })
  @IsOptional()
  @MaxLength(200)
  targetId?: string | null;

  @Field(() => GraphQLISODateTime, { nullable: true, description: 'From this time on' })
  since?: Date | null;

  @Field(() => GraphQLISODateTime, { nullable: true, description: 'Before this time' })
  until?: Date | null;
}

@InputType({ description: 'Why an admin suspends an account' })
export class SuspendInput {
  @Field(() => String, { nullable: true })
  @IsOptional()
  @MaxLength(500)
  reason?: string | null;
}

@ObjectType({ description: 'How many accounts have a role' })
export class RoleCount {
  @Field(() => String)
  role!: string;

  @Field(() => Int)
  count!: number;
}

@ObjectType({ description: 'How many accounts are in a status' })
export class StatusCount {
  @Field(() => String)
  status!: string;

  @Field(() => Int)
  count!: number;
}

@ObjectType({ description: 'An amount of money in minor units of its currency' })
export class CurrencyAmount {
  @Field(() => String, { description: 'ISO 4217' })
  currency!: string;

  @Field(() => Float, { description: "In the currency's minor unit" })
  amount!: number;
}

@ObjectType({ description: 'Figures of the whole platform for admins' })
export class PlatformStatsView {
  @Field(() => [RoleCount])
  usersByRole!: RoleCount[];

  @Field(() => [StatusCount])
  usersByStatus!: StatusCount[];

  @Field(() => Int, { description: 'Learners who completed a lesson, took a quiz or asked the AI in the last 7 days' })
  activeLearners7d!: number;

  @Field(() => Int)
  activeLearners30d!: number;

  @Field(() => Int)
  enrollments!: number;

  @Field(() => Int)
  certificates!: number;

  @Field(() => Int, { description: 'AI messages of the current UTC day' })
  aiMessagesToday!: number;

  @Field(() => [CurrencyAmount], { description: 'Empty until payments exist' })
  revenueThisMonth!: CurrencyAmount[];
}
