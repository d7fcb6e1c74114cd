import { defineArea } from '../kernel/area';
import { allRowsOf } from '../kernel/personal-data';
import { ContactMessage } from './contact-message.entity';
import { ContactResolver, contactNodes } from './contact.resolver';
import { contactRoutes } from './contact.routes';
import { CONTACT_BUCKET, contactRules } from './contact.rules';
import { ContactService } from './contact.service';
import { Migration20261123110000_contact } from './migrations/Migration20261123110000_contact';

declare module '../kernel/services' {
  interface Services {
    contact: ContactService;
  }
}

export const contactArea = defineArea({
  name: 'contact',
  uses: ['audit', 'auth', 'features'],
  entities: [ContactMessage],
  resolvers: [ContactResolver],
  rules: contactRules,
  rateLimits: (config) => ({ [CONTACT_BUCKET]: { points: config.RATE_LIMIT_CONTACT, seconds: 3600 } }),
  nodes: contactNodes,
  routes: contactRoutes,
  migrations: [{ name: 'Migration20261123110000_contact', class: Migration20261123110000_contact }],
  services: { contact: (uow, services) => new ContactService(uow, services.audit) },
  // Messages are tied to an address, not an account; an erased resolver leaves them unresolved-by-nobody.
  personalData: {
    entities: [ContactMessage],
    // Messages are kept by the sender's address: what someone wrote before or after signing up is theirs.
    export: async (userId, services, uow) => {
      const user = await services.auth.findUser(userId);
      return {
        messages: user ? await allRowsOf(uow, ContactMessage, { email: user.email }) : [],
        resolved: await allRowsOf(uow, ContactMessage, { resolvedBy: userId }),
      };
    },
    erase: async (userId, _pseudonym, services, uow) => {
      const user = await services.auth.findUser(userId);
      if (user) await uow.em.nativeDelete(ContactMessage, { email: user.email });
    },
  },
});
