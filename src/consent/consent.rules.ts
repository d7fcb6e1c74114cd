import { allow, and, rule } from 'graphql-shield';
import { isSelfOrGuardian, learnerActive } from '../guardian';
import { isAuthenticated, namedRule } from '../permissions/rules';
import type { Context } from '../kernel/context';
import { AppError } from '../kernel/errors';
import type { ConsentType } from './consent.entity';

/** For features behind a consent: the caller's holds today, else consent_required or guardian_consent_required. */
export const hasConsent = (type: ConsentType) =>
  namedRule(`hasConsent(${type})`, () =>
    and(
      isAuthenticated,
      rule(`hasConsent(${type})`, { cache: 'no_cache' })(async (_parent, _args, ctx: Context) => {
        try {
          await ctx.services.consent.assertConsent(ctx.auth.userId!, type);
          return true;
        } catch (error) {
          if (error instanceof AppError) return error;
          throw error;
        }
      }),
    ),
  );

export const consentRules = {
  Query: { consents: isAuthenticated, consentLedger: isAuthenticated },
  Mutation: { grantConsent: learnerActive, revokeConsent: learnerActive },
  Consent: allow,
  ConsentGrantor: allow,
  ConsentLedgerEntryView: allow,
  ConsentLedgerConnection: allow,
  ConsentLedgerEdge: allow,
  User: { consents: isSelfOrGuardian, consentLedger: isSelfOrGuardian },
};
