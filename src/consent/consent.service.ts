import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { UnitOfWork } from '../kernel/unit-of-work';
import { accessChanged } from '../kernel/access';
import type { AuthService } from '../auth';
import { ageOn } from '../auth';
import { Role, type User } from '../auth';
import type { CountryPolicyService } from '../country-policy';
import type { GuardianService } from '../guardian';
import { AppError } from '../kernel/errors';
import { isId } from '../kernel/ids';
import { Consent, ConsentAction, ConsentActorRole, ConsentLedgerEntry, ConsentType } from './consent.entity';
import { type ConsentRequirement, consentRequirement, isGranted } from './consent.requirements';
import {
  consentRequired,
  guardianConsentRequired,
  type GuardiansAsked,
  learnerDecidesConsent,
  unknownLearner,
  unknownUser,
} from './consent.errors';

/** A consent type as it stands for one person today. */
export interface ConsentState extends ConsentRequirement {
  type: ConsentType;
  granted: boolean;
  guardianGrantedBy: User | null;
  guardianGrantedAt: Date | null;
  ownGrantedAt: Date | null;
  policyVersion: number | null;
}

export class ConsentService {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly auth: AuthService,
    private readonly policies: CountryPolicyService,
    private readonly guardians: GuardianService,
  ) {}

  private get em(): EntityManager {
    return this.uow.em;
  }

  /** Every consent type for the caller, or for a learner the caller is an active guardian of. */
  async statesFor(caller: User, learnerId?: string | null): Promise<ConsentState[]> {
    const subject = await this.subjectFor(caller, learnerId);
    const stored = await this.em.find(Consent, { subject }, { populate: ['guardianGrantedBy'] });
    const requirements = await this.requirementsOf(subject);
    return Object.values(ConsentType).map((type) =>
      this.state(
        type,
        requirements(type),
        stored.find((c) => c.type === type),
      ),
    );
  }

  /**
   * Every consent type of one person, batched with every other person the same query walks to (a
   * guardian's learners): one read of the people, one of their consents, one policy per country.
   * Who may read them is the caller's rule (the person, or their active guardian).
   */
  statesOfSubject(subjectId: string): Promise<ConsentState[]> {
    return this.uow
      .loader<string, ConsentState[]>('consent.states', async (keys) => {
        const ids = [...keys];
        const [subjects, stored] = await Promise.all([
          this.auth.findUsers(ids),
          this.em.find(Consent, { subject: { $in: ids } }, { populate: ['guardianGrantedBy'] }),
        ]);
        const countries = [...new Set(subjects.map((s) => s.country))];
        const policies = new Map(
          await Promise.all(
            countries.map(async (country) => [country, await this.policies.policyOf(country)] as const),
          ),
        );
        return ids.map((id) => {
          const subject = subjects.find((s) => s.id === id);
          if (!subject) return [];
          const age = subject.birthDate ? ageOn(subject.birthDate) : undefined;
          return Object.values(ConsentType).map((type) =>
            this.state(
              type,
              consentRequirement(type, age, policies.get(subject.country)!),
              stored.find((c) => c.subject.id === id && c.type === type),
            ),
          );
        });
      })
      .load(subjectId);
  }

  async grant(caller: User, type: ConsentType, learnerId?: string | null): Promise<ConsentState> {
    return this.change(caller, type, learnerId, ConsentAction.granted);
  }

  async revoke(caller: User, type: ConsentType, learnerId?: string | null): Promise<ConsentState> {
    return this.change(caller, type, learnerId, ConsentAction.revoked);
  }

  /** Throws consent_required or guardian_consent_required unless the consent holds today. */
  async assertConsent(subjectId: string, type: ConsentType): Promise<void> {
    const subject = await this.auth.findUser(subjectId);
    if (!subject) throw unknownUser();
    const requirement = (await this.requirementsOf(subject))(type);
    const stored = await this.em.findOne(Consent, { subject, type });
    if (stored && isGranted(requirement, stored)) return;
    if (requirement.needsGuardian && !stored?.guardianGrantedAt)
      throw guardianConsentRequired(
        type,
        (await this.guardians.activeGuardianIdsOf(subject.id)).length ? 'linked' : 'none',
      );
    throw consentRequired(type);
  }

  /**
   * Only the guardian's part of a consent: for `basic_data`, whose own part the person gave by
   * signing up. Under the country's consent age, until a linked guardian grants it, this throws
   * guardian_consent_required and the active guardians are asked (once while their notice is unread).
   */
  async assertGuardianConsent(subjectId: string, type: ConsentType): Promise<void> {
    const subject = await this.auth.findUser(subjectId);
    if (!subject) throw unknownUser();
    if (!(await this.requirementsOf(subject))(type).needsGuardian) return;
    const stored = await this.em.findOne(Consent, { subject, type });
    if (stored?.guardianGrantedAt) return;
    throw guardianConsentRequired(type, await this.askGuardians(subject, type, { unlessAskedAlready: true }));
  }

  /** Those of the subjects whose guardian has granted the consent, in one statement whatever their number. */
  async guardianGrantedAmong(subjectIds: string[], type: ConsentType): Promise<Set<string>> {
    if (!subjectIds.length) return new Set();
    const rows = await this.em.find(
      Consent,
      { subject: { $in: subjectIds }, type, guardianGrantedAt: { $ne: null } },
      { fields: ['subject'] },
    );
    return new Set(rows.map((row) => row.subject.id));
  }

  async hasConsent(subjectId: string, type: ConsentType): Promise<boolean> {
    return this.assertConsent(subjectId, type).then(
      () => true,
      (error) => (error instanceof AppError && error.status === 403 ? false : Promise.reject(error)),
    );
  }

  /** The ledger of one person, newest first: the person, their active guardians and admins read it. */
  async ledger(caller: User, learnerId?: string | null): Promise<ConsentLedgerEntry[]> {
    const subject =
      caller.hasRole(Role.admin) && learnerId
        ? await this.findSubject(learnerId)
        : await this.subjectFor(caller, learnerId);
    return this.em.find(
      ConsentLedgerEntry,
      { subject },
      { orderBy: { createdAt: 'desc', id: 'desc' }, populate: ['actor'] },
    );
  }

  /** The ledger entries among these ids whose ledger the caller reads (`ledger`): their own, their active learners', every one for admins. */
  async ledgerEntriesByIds(caller: User, ids: string[]): Promise<ConsentLedgerEntry[]> {
    const subjects = caller.hasRole(Role.admin)
      ? null
      : [caller.id, ...(await this.guardians.activeLearnerIdsOf(caller.id))];
    return this.em.find(
      ConsentLedgerEntry,
      { id: { $in: ids.filter(isId) }, ...(subjects && { subject: { $in: subjects } }) },
      { populate: ['actor'] },
    );
  }

  private async change(
    caller: User,
    type: ConsentType,
    learnerId: string | null | undefined,
    action: ConsentAction,
  ): Promise<ConsentState> {
    const subject = await this.subjectFor(caller, learnerId);
    const asGuardian = subject.id !== caller.id;
    const policy = await this.policies.policyOf(subject.country);
    const requirement = (await this.requirementsOf(subject))(type);
    if (asGuardian && !requirement.needsGuardian) {
      throw learnerDecidesConsent();
    }
    /** The learner's own grant of a consent that waits for a guardian's: refused, and the guardians asked. */
    const needsGuardianStill = (consent: Consent) =>
      action === ConsentAction.granted && !asGuardian && requirement.needsGuardian && !consent.guardianGrantedAt;
    let asked: GuardiansAsked = 'none';
    // The consent, its ledger entry, the reactions to a revocation (projects made private) and the guardians' request are one commit.
    const consent = await this.uow.transaction(async (em) => {
      const changed = await this.findOrCreate(subject, type, policy.version);
      const before = { guardianGrantedAt: changed.guardianGrantedAt, ownGrantedAt: changed.ownGrantedAt };
      applyChange(changed, caller, asGuardian, requirement, action);
      changed.policyVersion = policy.version;
      changed.updatedAt = new Date();
      let entry: ConsentLedgerEntry | undefined;
      if (
        before.guardianGrantedAt !== changed.guardianGrantedAt ||
        before.ownGrantedAt !== changed.ownGrantedAt ||
        action === ConsentAction.revoked
      ) {
        entry = em.create(ConsentLedgerEntry, {
          subject: subject.id,
          type,
          action,
          actor: caller.id,
          actorRole: asGuardian ? ConsentActorRole.guardian : ConsentActorRole.self,
          country: subject.country,
          policyVersion: policy.version,
        });
      }
      await em.flush();
      if (action === ConsentAction.revoked)
        await this.uow.raise({
          type: 'consentRevoked',
          subjectId: subject.id,
          consentType: type,
          ledgerEntryId: entry!.id,
        });
      if (needsGuardianStill(changed)) asked = await this.askGuardians(subject, type);
      return changed;
    });
    accessChanged(this.uow, subject.id);
    if (needsGuardianStill(consent)) throw guardianConsentRequired(type, asked);
    return this.state(type, requirement, consent);
  }

  /** Notifies the learner's active guardians; 'none' when there is nobody to ask. */
  private async askGuardians(
    learner: User,
    type: ConsentType,
    options: { unlessAskedAlready?: boolean } = {},
  ): Promise<GuardiansAsked> {
    const data = { learnerId: learner.id, consentTypeId: type };
    const message =
      type === ConsentType.basic_data
        ? {
            title: {
              en: `${learner.displayName} needs your consent to learn here`,
              vi: `${learner.displayName} cần bạn đồng ý để học tại đây`,
            },
            body: {
              en: `Until you grant the "basic_data" consent, ${learner.displayName} cannot enroll, save progress, take quizzes or save projects.`,
              vi: `Cho đến khi bạn đồng ý "basic_data", ${learner.displayName} chưa thể ghi danh, lưu tiến độ, làm bài kiểm tra hay lưu dự án.`,
            },
            data,
          }
        : {
            title: { en: `${learner.displayName} asks for your consent`, vi: `${learner.displayName} xin bạn đồng ý` },
            body: {
              en: `${learner.displayName} would like to use a feature that needs the "${type}" consent.`,
              vi: `${learner.displayName} muốn dùng một tính năng cần sự đồng ý "${type}".`,
            },
            data,
          };
    const recipients = await this.guardians.activeGuardianIdsOf(learner.id);
    if (!recipients.length) return 'none';
    // Announced through the outbox, in the caller's transaction (or one of its own): delivered after commit, once.
    await this.uow.raise({
      type: 'notification.requested',
      recipients,
      notificationType: 'consent',
      message,
      onceWhileUnread: options.unlessAskedAlready,
    });
    return 'asked';
  }

  private async findOrCreate(subject: User, type: ConsentType, policyVersion: number): Promise<Consent> {
    // Two first grants at once: one row wins, both then change it.
    await this.em.upsert(
      Consent,
      { id: randomUUID(), subject, type, policyVersion, updatedAt: new Date() },
      { onConflictFields: ['subject', 'type'], onConflictAction: 'ignore' },
    );
    return this.em.findOneOrFail(Consent, { subject, type }, { refresh: true, populate: ['guardianGrantedBy'] });
  }

  /** The caller, or a learner the caller is an active guardian of (anybody else's is not found). */
  private async subjectFor(caller: User, learnerId?: string | null): Promise<User> {
    if (!learnerId || learnerId === caller.id) return caller;
    if (!isId(learnerId) || !(await this.guardians.isActiveGuardianOf(caller.id, learnerId))) throw unknownLearner();
    return this.findSubject(learnerId);
  }

  private async findSubject(id: string): Promise<User> {
    const user = isId(id) ? await this.auth.findUser(id) : null;
    if (!user) throw unknownLearner();
    return user;
  }

  private async requirementsOf(subject: User): Promise<(type: ConsentType) => ConsentRequirement> {
    const policy = await this.policies.policyOf(subject.country);
    const age = subject.birthDate ? ageOn(subject.birthDate) : undefined;
    return (type) => consentRequirement(type, age, policy);
  }

  private state(type: ConsentType, requirement: ConsentRequirement, stored?: Consent): ConsentState {
    return {
      type,
      ...requirement,
      granted: stored ? isGranted(requirement, stored) : false,
      guardianGrantedBy: stored?.guardianGrantedBy ?? null,
      guardianGrantedAt: stored?.guardianGrantedAt ?? null,
      ownGrantedAt: stored?.ownGrantedAt ?? null,
      policyVersion: stored?.policyVersion ?? null,
    };
  }
}

/**
 * A guardian gives or takes back the guardian's part. The person gives their own part; taking a
 * consent back, they withdraw it whole (a child may always say no).
 */
function applyChange(
  consent: Consent,
  caller: User,
  asGuardian: boolean,
  requirement: ConsentRequirement,
  action: ConsentAction,
): void {
  const now = new Date();
  if (asGuardian) {
    consent.guardianGrantedAt = action === ConsentAction.granted ? (consent.guardianGrantedAt ?? now) : null;
    consent.guardianGrantedBy = action === ConsentAction.granted ? (consent.guardianGrantedBy ?? caller) : null;
    return;
  }
  if (action === ConsentAction.revoked) {
    consent.ownGrantedAt = null;
    consent.guardianGrantedAt = null;
    consent.guardianGrantedBy = null;
    return;
  }
  if (requirement.needsOwn) consent.ownGrantedAt ??= now;
}
