import { defineArea } from '../kernel/area';
import { writeSharedData } from '../kernel/shared-data';
import { allRowsOf } from '../kernel/personal-data';
import { CourseOnSale } from './course-on-sale.entity';
import { Entitlement } from './entitlements.entity';
import { Migration20261130000300_courses_on_sale } from './migrations/Migration20261130000300_courses_on_sale';
import { EntitlementsResolver, EntitlementsUserEdges, entitlementsNodes } from './entitlements.resolver';
import { entitlementsRoutes } from './entitlements.routes';
import { entitlementsRules } from './entitlements.rules';
import { EntitlementsService } from './entitlements.service';

export type { EntitlementsService } from './entitlements.service';
export {
  Entitlement,
  EntitlementKind,
  EntitlementRevokedReason,
  EntitlementSource,
  EntitlementStatus,
} from './entitlements.entity';
export { purchaseGrantCtes } from './entitlements.service';
export { closedCourses, courseOpen, paidCourseCheck } from './paid-courses';

declare module '../kernel/services' {
  interface Services {
    entitlements: EntitlementsService;
  }
}

/**
 * Tiers and courses an account may use, and the rules that open paid courses (docs/commerce.md).
 * Payments grant and take back what they paid for through this area; its table's migrations are
 * still the commerce migrations that made it.
 */
export const entitlementsArea = defineArea({
  name: 'entitlements',
  uses: ['audit', 'auth'],
  sharedTables: ['courses_on_sale'],
  entities: [Entitlement, CourseOnSale],
  migrations: [{ name: 'Migration20261130000300_courses_on_sale', class: Migration20261130000300_courses_on_sale }],
  resolvers: [EntitlementsResolver, EntitlementsUserEdges],
  nodes: entitlementsNodes,
  rules: entitlementsRules,
  routes: entitlementsRoutes,
  services: { entitlements: (uow, services) => new EntitlementsService(uow, services) },
  personalData: {
    entities: [Entitlement, CourseOnSale],
    export: async (userId, _services, uow) => ({ entitlements: await allRowsOf(uow, Entitlement, { user: userId }) }),
    // What only served the person goes; a course on sale stays, without its author (as the course does).
    erase: async (userId, _pseudonym, _services, uow) => {
      await uow.em.nativeDelete(Entitlement, { user: userId });
      await writeSharedData(uow, 'update courses_on_sale set author_id = null where author_id = ?', [userId]);
    },
  },
});
