import { Node } from '../kernel/node';
import { IsOptional, IsUUID, MaxLength } from 'class-validator';
import { GraphQLJSONObject } from 'graphql-scalars';
import { ArgsType, Field, Float, GraphQLISODateTime, ID, InputType, Int, ObjectType } from 'type-graphql';
import { AccountStatus, Role, UserConnection } from '../auth';
import { LIMITS } from '../kernel/limits';
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
  @Field(() => Role, { nullable: true, description: 'Only accounts that have this role' })
  role?: Role | null;

  @Field(() => AccountStatus, { nullable: true, description: 'Only accounts in this status' })
  status?: AccountStatus | null;

  @Field(() => String, { nullable: true, description: 'Part of the e-mail address' })
  @IsOptional()
  @MaxLength(254)
  email?: string | null;
}

@ArgsType()
export class UsersArgs extends PageArgs {
  @Field(() => UserFilterInput, { nullable: true, description: 'Which accounts to list; all accounts when omitted' })
  filter?: UserFilterInput | null;
}

@ObjectType({ description: "One change of an account's roles, and who made it", implements: Node })
export class RoleChangeView implements Node {
  @Field(() => ID, { description: 'Identifier of the role change' })
  id!: string;

  @Field(() => Role, { description: 'The role that was given or taken away' })
  role!: Role;

  @Field(() => RoleChangeAction, { description: 'Whether the role was given or taken away' })
  action!: RoleChangeAction;

  @Field(() => ID, { nullable: true, description: 'Null when made from the command line' })
  actorId!: string | null;

  @Field(() => GraphQLISODateTime, { description: 'When the role was changed' })
  createdAt!: Date;
}

@ObjectType({ description: 'One recorded action of the audit log: who did what to what, when', implements: Node })
export class AuditEntryView implements Node {
  @Field(() => ID, { description: 'Identifier of the audit entry' })
  id!: string;

  @Field(() => ID, { nullable: true, description: 'Null for the command line and the system' })
  actorId!: string | null;

  @Field(() => String, {
    nullable: true,
    description: 'E-mail address of the account that acted; null for the command line, the system or a deleted account',
  })
  actorEmail!: string | null;

  @Field(() => String, { description: '<area>.<verb>, e.g. admin.user_suspended' })
  action!: string;

  @Field(() => String, {
    nullable: true,
    description: 'Kind of object acted on, e.g. user; null when the action has no target',
  })
  targetType!: string | null;

  @Field(() => String, {
    nullable: true,
    description: 'Identifier of the object acted on; null when the action has no target',
  })
  targetId!: string | null;

  @Field(() => GraphQLJSONObject, { description: 'Details of the action, which differ per action' })
  data!: Record<string, unknown>;

  @Field(() => GraphQLISODateTime, { description: 'When the action happened' })
  createdAt!: Date;
}

export const AuditEntryConnection = Connection(AuditEntryView, 'AuditEntry');

@ArgsType()
export class AuditArgs extends PageArgs {
  @Field(() => ID, { nullable: true, description: 'Only entries made by this account' })
  @IsOptional()
  @IsUUID()
  actorId?: string | null;

  @Field(() => String, { nullable: true, description: 'Only entries of this action, e.g. admin.user_suspended' })
  @IsOptional()
  @MaxLength(100)
  action?: string | null;

  @Field(() => String, { nullable: true, description: 'Only entries about objects of this kind, e.g. user' })
  @IsOptional()
  @MaxLength(100)
  targetType?: string | null;

  @Field(() => String, { nullable: true, description: 'Only entries about the object with this id' })
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
  @Field(() => String, {
    nullable: true,
    description: `Why the account is suspended, at most ${LIMITS.suspendReason} characters; kept in the audit log`,
  })
  @IsOptional()
  @MaxLength(LIMITS.suspendReason)
  reason?: string | null;
}

@ObjectType({ description: 'How many accounts have a role' })
export class RoleCount {
  @Field(() => String, { description: 'The role' })
  role!: string;

  @Field(() => Int, { description: 'Number of accounts with this role' })
  count!: number;
}

@ObjectType({ description: 'How many accounts are in a status' })
export class StatusCount {
  @Field(() => String, { description: 'The account status' })
  status!: string;

  @Field(() => Int, { description: 'Number of accounts in this status' })
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
  @Field(() => [RoleCount], { description: 'Number of accounts per role' })
  usersByRole!: RoleCount[];

  @Field(() => [StatusCount], { description: 'Number of accounts per account status' })
  usersByStatus!: StatusCount[];

  @Field(() => Int, { description: 'Learners who completed a lesson, took a quiz or asked the AI in the last 7 days' })
  activeLearners7d!: number;

  @Field(() => Int, { description: 'Learners who completed a lesson, took a quiz or asked the AI in the last 30 days' })
  activeLearners30d!: number;

  @Field(() => Int, { description: 'Course enrollments in total' })
  enrollments!: number;

  @Field(() => Int, { description: 'Certificates issued in total' })
  certificates!: number;

  @Field(() => Int, { description: 'AI messages of the current UTC day' })
  aiMessagesToday!: number;

  @Field(() => [CurrencyAmount], { description: 'Empty until payments exist' })
  revenueThisMonth!: CurrencyAmount[];
}
