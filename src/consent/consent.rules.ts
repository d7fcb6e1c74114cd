import { allow, and, chain, rule } from 'graphql-shield';
import { isSelfOrGuardian, learnerActive } from '../guardian';
import { aboutCaller, isAuthenticated, namedRule, refusalOf } from '../permissions/rules';
import type { Context } from '../kernel/context';
import { ConsentType } from './consent.entity';

/**
 * For features behind a consent: the caller's holds today, else consent_required or
 * guardian_consent_required. `basic_data` (storing what a learner does) checks the guardian's part
 * only, which is needed under the country's consent age (docs/domain.md): the person gave their own
 * by signing up.
 */
export const hasConsent = (type: ConsentType) =>
  namedRule(`hasConsent(${type})`, () =>
    and(
      isAuthenticated,
      aboutCaller(
        rule(`hasConsent(${type})`, { cache: 'no_cache' })(async (_parent, _args, ctx: Context) =>
          refusalOf(() =>
            type === ConsentType.basic_data
              ? ctx.services.consent.assertGuardianConsent(ctx.auth.userId!, type)
              : ctx.services.consent.assertConsent(ctx.auth.userId!, type),
          ),
        ),
      ),
    ),
  );

/**
 * Operations that store a learner's data (enroll, progress, quizzes, CodeLab submissions and
 * projects): an active learner whose guardian granted `basic_data` where the country's consent age
 * asks for it. In order, so that a learner still waiting for a guardian hears that first.
 */
export const mayStoreLearnerData = namedRule('mayStoreLearnerData', () =>
  chain(learnerActive, hasConsent(ConsentType.basic_data)),
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
