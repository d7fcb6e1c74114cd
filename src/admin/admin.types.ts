import { IsOptional, MaxLength } from 'class-validator';
import { ArgsType, Field, GraphQLISODateTime, ID, InputType, ObjectType } from 'type-graphql';
import { UserView } from '../auth';
import { AccountStatus, Role } from '../auth';
import { Connection, PageArgs } from '../kernel/pagination';
import { RoleChangeAction } from './role-change.entity';
import { registerEnumType } from 'type-graphql';

registerEnumType(RoleChangeAction, { name: 'RoleChangeAction' });

export const UserConnection = Connection(UserView, 'User');

@InputType()
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

@ObjectType()
export class RoleChangeView {
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
