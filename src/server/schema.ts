import { createPubSub } from '@graphql-yoga/subscription';
import { type GraphQLSchema, lexicographicSortSchema, printSchema } from 'graphql';
import { type AuthChecker, buildSchema, type PubSub } from 'type-graphql';
import { AdminResolver } from '../admin/admin.resolver';
import { AiResolver } from '../ai/ai.resolver';
import { AuthResolver } from '../auth/auth.resolver';
import { CertificatesResolver } from '../certificates/certificates.resolver';
import { CoursesResolver } from '../courses/courses.resolver';
import { FactoryResolver } from '../factory/factory.resolver';
import { ProgressResolver } from '../progress/progress.resolver';
import { ConsentResolver } from '../consent/consent.resolver';
import { CountryPolicyResolver } from '../country-policy/country-policy.resolver';
import { GuardianResolver } from '../guardian/guardian.resolver';
import { HealthResolver } from '../health/health.resolver';
import { NotificationsResolver } from '../notifications/notifications.resolver';
import type { Context } from './context';

export const resolvers = [AuthResolver, AdminResolver, HealthResolver, NotificationsResolver, GuardianResolver, ConsentResolver, CountryPolicyResolver, AiResolver, CoursesResolver, ProgressResolver, CertificatesResolver, FactoryResolver] as const;

/** Guards subscriptions at subscribe time, where shield rules do not run: a signed-in caller, with one of the roles if named. */
const authChecker: AuthChecker<Context> = async ({ context }, roles) => {
  if (!context.auth.userId || context.auth.error) return false;
  if (!roles.length) return true;
  const viewer = await context.viewer();
  return Boolean(viewer?.roles.some((role) => roles.includes(role)));
};

/** The schema before permissions; the shield middleware is applied by the server. */
export function buildAppSchema(pubSub: PubSub = createPubSub()): Promise<GraphQLSchema> {
  return buildSchema({
    resolvers,
    pubSub,
    authChecker,
    validate: { forbidUnknownValues: false },
  });
}

export function printAppSchema(schema: GraphQLSchema): string {
  return `${printSchema(lexicographicSortSchema(schema))}\n`;
}
