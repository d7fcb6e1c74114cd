import { defineArea } from '../kernel/area';
import { ContactMessage } from './contact-message.entity';
import { ContactResolver } from './contact.resolver';
import { contactRoutes } from './contact.routes';
import { contactRules } from './contact.rules';
import { ContactService } from './contact.service';
import { Migration20261123110000_contact } from './migrations/Migration20261123110000_contact';

declare module '../kernel/services' {
  interface Services {
    contact: ContactService;
  }
}

export const contactArea = defineArea({
  name: 'contact',
  entities: [ContactMessage],
  resolvers: [ContactResolver],
  rules: contactRules,
  routes: contactRoutes,
  migrations: [{ name: 'Migration20261123110000_contact', class: Migration20261123110000_contact }],
  services: { contact: (uow, services) => new ContactService(uow, services.audit) },
  // Messages are tied to an address, not an account; an erased resolver leaves them unresolved-by-nobody.
  personalData: { entities: [] },
});
