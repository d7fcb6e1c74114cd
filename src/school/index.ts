import { defineArea } from '../kernel/area';
import { Migration20261123130000_schools } from './migrations/Migration20261123130000_schools';
import { ClassCourse, ClassMember, School, SchoolClass, SchoolMember } from './school.entity';
import { SchoolResolver } from './school.resolver';
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
  entities: [School, SchoolMember, SchoolClass, ClassMember, ClassCourse],
  resolvers: [SchoolResolver],
  rules: schoolRules,
  routes: schoolRoutes,
  migrations: [{ name: 'Migration20261123130000_schools', class: Migration20261123130000_schools }],
  services: {
    school: (uow, services) => new SchoolService(uow, services.auth, services.courses, services.progress, services.guardian, services.audit),
  },
  personalData: { entities: [SchoolMember, ClassMember] },
});
