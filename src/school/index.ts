import { defineArea } from '../kernel/area';
import { allRowsOf } from '../kernel/personal-data';
import { Migration20261123130000_schools } from './migrations/Migration20261123130000_schools';
import { Migration20261204000000_school_actors_of_any_region } from './migrations/Migration20261204000000_school_actors_of_any_region';
import { ClassCourse, ClassMember, School, SchoolClass, SchoolMember } from './school.entity';
import { RosterMemberEdges, SchoolClassEdges, SchoolResolver, SchoolUserEdges, schoolNodes } from './school.resolver';
import { madeByPseudonym } from './school-region';
import { schoolRoutes } from './school.routes';
import { schoolRules } from './school.rules';
import { SchoolService } from './school.service';

declare module '../kernel/services' {
  interface Services {
    school: SchoolService;
  }
}

export const schoolArea = defineArea({
  name: 'school',
  uses: ['audit', 'auth', 'consent', 'courses', 'guardian', 'progress'],
  entities: [School, SchoolMember, SchoolClass, ClassMember, ClassCourse],
  resolvers: [SchoolResolver, RosterMemberEdges, SchoolUserEdges, SchoolClassEdges],
  rules: schoolRules,
  nodes: schoolNodes,
  routes: schoolRoutes,
  migrations: [
    { name: 'Migration20261123130000_schools', class: Migration20261123130000_schools },
    {
      name: 'Migration20261204000000_school_actors_of_any_region',
      class: Migration20261204000000_school_actors_of_any_region,
    },
  ],
  services: {
    school: (uow, services) =>
      new SchoolService(
        uow,
        services.auth,
        services.courses,
        services.progress,
        services.guardian,
        services.audit,
        services.consent,
        services.homeRegion,
      ),
  },
  personalData: {
    entities: [SchoolMember, ClassMember, School, SchoolClass, ClassCourse],
    export: async (userId, _services, uow) => ({
      schoolRoles: await allRowsOf(uow, SchoolMember, { user: userId }),
      classes: await allRowsOf(uow, ClassMember, { learner: userId }),
      created: {
        schools: await allRowsOf(uow, School, { createdBy: userId }),
        classes: await allRowsOf(uow, SchoolClass, { createdBy: userId }),
        assignments: await allRowsOf(uow, ClassCourse, { assignedBy: userId }),
      },
    }),
    // The person's memberships go; schools, classes and assignments they made are the school's and
    // stay, pointing at the pseudonym the account becomes.
    erase: async (userId, pseudonym, _services, uow) => {
      await uow.em.nativeDelete(ClassMember, { learner: userId });
      await uow.em.nativeDelete(SchoolMember, { user: userId });
      await madeByPseudonym(uow, userId, pseudonym);
    },
  },
});
