import { Ctx, Field, Int, ObjectType, Query, Resolver } from 'type-graphql';
import type { Context } from '../kernel/context';

@ObjectType()
class Health {
  @Field(() => String)
  status!: string;

  @Field(() => String)
  database!: string;

  @Field(() => Int)
  latencyMs!: number;
}

@ObjectType()
class EmailHealth {
  @Field(() => String)
  status!: string;

  @Field(() => String, { description: 'smtp or file' })
  transport!: string;
}

@Resolver()
export class HealthResolver {
  @Query(() => Health, { description: 'Health of the API and its database' })
  health(@Ctx() ctx: Context) {
    return ctx.services.health.database();
  }

  @Query(() => EmailHealth, { description: 'Health of the e-mail system' })
  emailHealth(@Ctx() ctx: Context) {
    return ctx.services.health.email();
  }
}
