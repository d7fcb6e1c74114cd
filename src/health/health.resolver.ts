import { Ctx, Field, Int, ObjectType, Query, Resolver } from 'type-graphql';
import type { Context } from '../kernel/context';

@ObjectType({ description: 'Whether the API and its database answer' })
class Health {
  @Field(() => String, { description: '`ok` when the API answers' })
  status!: string;

  @Field(() => String, { description: '`up` when the database answers' })
  database!: string;

  @Field(() => Int, { description: 'How long the database took to answer, in milliseconds' })
  latencyMs!: number;
}

@ObjectType({ description: 'Whether the process answers' })
class Liveness {
  @Field(() => String, { description: '`ok` when the process answers' })
  status!: string;
}

@ObjectType({ description: 'Whether the instance should receive traffic' })
class Readiness {
  @Field(() => String, { description: '`ok` when the instance should receive traffic' })
  status!: string;

  @Field(() => String, { description: '`up` when the database answers' })
  database!: string;

  @Field(() => String, { description: '`applied` when every migration of this build is in the database' })
  migrations!: string;

  @Field(() => String, { description: '`running` when the outbox relay delivers what commits wrote' })
  outboxRelay!: string;
}

@ObjectType({ description: 'Whether mail can leave, and how' })
class EmailHealth {
  @Field(() => String, { description: '`ok` when mail can leave' })
  status!: string;

  @Field(() => String, { description: 'How mail leaves: `smtp`, or `file` (written to the outbox folder)' })
  transport!: string;
}

@Resolver()
export class HealthResolver {
  @Query(() => Health, { description: 'Health of the API and its database' })
  health(@Ctx() ctx: Context) {
    return ctx.services.health.database();
  }

  @Query(() => Liveness, { description: 'Liveness: the process answers' })
  liveness(@Ctx() ctx: Context) {
    return ctx.services.health.live();
  }

  @Query(() => Readiness, {
    description: 'Readiness: the database answers, every migration is applied and the outbox relay runs',
  })
  readiness(@Ctx() ctx: Context) {
    return ctx.services.health.ready();
  }

  @Query(() => EmailHealth, { description: 'Health of the e-mail system' })
  emailHealth(@Ctx() ctx: Context) {
    return ctx.services.health.email();
  }
}
