import { allRowsOf, rowsOf } from '../kernel/personal-data';
import { defineArea } from '../kernel/area';
import { Migration20261129000100_consent_access_events } from './migrations/Migration20261129000100_consent_access_events';
import { Consent, ConsentLedgerEntry, type ConsentType } from './consent.entity';
import { ConsentResolver, ConsentUserEdges, consentNodes } from './consent.resolver';
import { consentRoutes } from './consent.routes';
import { consentRules } from './consent.rules';
import { ConsentService } from './consent.service';
import { Migration20261122020000_guardians_consent_consent } from './migrations/Migration20261122020000_guardians_consent_consent';

export type { Consent } from './consent.entity';

export { ConsentType } from './consent.entity';
export type { ConsentService } from './consent.service';
export { hasConsent, mayStoreLearnerData } from './consent.rules';

declare module '../kernel/events' {
  interface DomainEvents {
    /** A consent was revoked (by the person or a guardian); other areas take back what it allowed. */
    consentRevoked: { subjectId: string; consentType: ConsentType; ledgerEntryId?: string };
  }
}

declare module '../kernel/services' {
  interface Services {
    consent: ConsentService;
  }
}

export const consentArea = defineArea({
  name: 'consent',
  uses: ['auth', 'country-policy', 'guardian'],
  migrations: [
    {
      name: 'Migration20261122020000_guardians_consent_consent',
      class: Migration20261122020000_guardians_consent_consent,
    },
    { name: 'Migration20261129000100_consent_access_events', class: Migration20261129000100_consent_access_events },
  ],
  entities: [Consent, ConsentLedgerEntry],
  resolvers: [ConsentResolver, ConsentUserEdges],
  rules: consentRules,
  nodes: consentNodes,
  routes: consentRoutes,
  services: {
    consent: (uow, services) => new ConsentService(uow, services.auth, services.countryPolicy, services.guardian),
  },
  personalData: {
    entities: [Consent, ConsentLedgerEntry],
    export: async (userId, _services, uow) => ({
      consents: await allRowsOf(uow, Consent, { subject: userId }),
      ledger: rowsOf(uow, ConsentLedgerEntry, { subject: userId }),
      grantedForOthers: await allRowsOf(uow, ConsentLedgerEntry, { actor: userId, subject: { $ne: userId } }),
    }),
    // The current consents go; the ledger is a record the law makes us keep: it stays, and its
    // subject becomes the pseudonym when the account does (the foreign key cascades on update).
    erase: async (userId, _pseudonym, _services, uow) => {
      await uow.em.nativeDelete(Consent, { subject: userId });
    },
  },
});
