import { LockMode, UniqueConstraintViolationException } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { regionHolding } from '../kernel/region-lookup';
import type { UnitOfWork } from '../kernel/unit-of-work';
import { accessChanged } from '../kernel/access';
import { accountsAmong, ageOn } from '../auth';
import { type AccountsService, type AuthService, normaliseEmail } from '../auth';
import { hashToken, randomToken } from '../kernel/tokens';
import { AccountStatus, type Locale, Role, type User } from '../auth';
import { publicLink, sendRequestMail } from '../mail/deliver';
import type { Deps } from '../kernel/deps';
import { isId } from '../kernel/ids';
import { afterCursor, type Page, toPage } from '../kernel/pagination';
import { LearnerAiAccess } from './ai-access.entity';
import { GuardianLink, GuardianLinkTransition, LinkStatus } from './guardian-link.entity';
import { AGE, LIMITS } from '../kernel/limits';
import { linkRequestMail } from './guardian.mails';
import { ASK_LEARNER_JOB, type AskLearner } from './guardian.jobs';
import {
  alreadyLinked,
  invalidLinkToken,
  learnerEmailNotVerified,
  learnerNotSignedUp,
  learnerTooYoungToRevoke,
  linkAlreadyRevoked,
  linkExists,
  linkLimitReached,
  onlyLearnerOrAdminApproves,
  onlyPendingLinkApproved,
  ownAddressAsLearner,
  regionMismatch,
  unknownLearner,
  unknownLink,
} from './guardian.errors';

/** The region whose database keeps the link with this id or mailed token's hash: a family's links are kept in its region. */
const linkRegion = (deps: Deps, column: 'id' | 'confirm_token_hash', value: string): Promise<Deps | null> =>
  regionHolding(deps, `select 1 from guardian_links where ${column} = ? limit 1`, [value]);

const MAX_LINKS_PER_GUARDIAN = LIMITS.linksPerGuardian;
const MIN_AGE_WITHOUT_GUARDIAN = AGE.withoutGuardian;
const MIN_AGE_TO_REVOKE = AGE.toRevokeGuardian;

export interface ChildProfile {
  displayName: string;
  birthDate: string;
  country?: string | null;
  locale?: Locale | null;
}

export interface AiAccess {
  enabled: boolean;
  memoryEnabled: boolean;
  dailyMessageLimit: number | null;
}

export class GuardianService {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly deps: Deps,
    private readonly auth: AuthService,
    private readonly accounts: AccountsService,
  ) {}

  private get em(): EntityManager {
    return this.uow.em;
  }

  /**
   * Declares a link to the learner with this address. The answer is the same whether or not the
   * address has an account (no existence leak): the link waits for the learner to confirm. A learner
   * who named this guardian at sign-up has chosen already: the link is active at once.
   */
  async declare(guardian: User, learnerEmailInput: string): Promise<GuardianLink> {
    const learnerEmail = normaliseEmail(learnerEmailInput);
    if (learnerEmail === guardian.email) throw ownAddressAsLearner();
    const confirm = randomToken();
    const link = await this.withGuardianLock(guardian, async (em) => {
      const learner = await this.learnerByEmail(learnerEmail);
      const link = em.create(GuardianLink, {
        guardian: guardian.id,
        learner,
        learnerEmail,
        confirmTokenHash: confirm.hash,
      });
      this.transition(em, link, LinkStatus.pending, guardian);
      // The learner chose this guardian at sign-up, but only an account that proved its address has chosen anything.
      if (learner?.guardianEmail === guardian.email && learner.emailVerified) await this.activate(em, link, learner);
      // The same row whoever owns the address, committed with the link; the job mails and notifies (guardian.jobs.ts).
      if (link.status === LinkStatus.pending)
        await this.uow.enqueue({
          kind: 'job',
          name: ASK_LEARNER_JOB,
          payload: { linkId: link.id, token: confirm.token } satisfies AskLearner,
        });
      return link;
    });
    await this.afterActivation(link);
    // A pending link shows no learner (GuardianResolver.learner): loading one would be a statement more for an address with an account.
    return link.status === LinkStatus.pending ? this.reload(link, ['guardian']) : this.reload(link);
  }

  /** A child without an e-mail of their own: the guardian manages the account; the link is active at once. */
  async addChild(guardian: User, profile: ChildProfile): Promise<GuardianLink> {
    const link = await this.withGuardianLock(guardian, async (em) => {
      const child = await this.auth.createManagedLearner({
        ...profile,
        country: profile.country ?? guardian.country,
        locale: profile.locale ?? guardian.locale,
      });
      const link = em.create(GuardianLink, {
        guardian: guardian.id,
        learner: child,
        learnerEmail: child.email,
      });
      this.transition(em, link, LinkStatus.pending, guardian);
      await this.activate(em, link, guardian);
      return link;
    });
    await this.afterActivation(link);
    return this.reload(link);
  }

  /** The learner (or an admin) approves a pending link. */
  async approve(actor: User, linkId: string): Promise<GuardianLink> {
    const elsewhere = await this.inLinksRegion(actor, linkId);
    if (elsewhere) return elsewhere.approve(actor, linkId);
    const link = await this.uow.transaction(async (em) => {
      const link = await this.visibleLink(em, actor, linkId);
      if (!this.isLearnerOf(actor, link) && !actor.hasRole(Role.admin)) throw onlyLearnerOrAdminApproves();
      if (link.status !== LinkStatus.pending) throw onlyPendingLinkApproved(link.status);
      link.learner ??= actor;
      await this.activate(em, link, actor);
      return link;
    });
    await this.afterActivation(link);
    return this.reload(link);
  }

  /** Following the mailed link: the token stands for the learner's approval. */
  async confirm(token: string): Promise<GuardianLink> {
    const held = await linkRegion(this.uow.deps, 'confirm_token_hash', hashToken(token));
    if (held && held.region !== this.uow.deps.region) return held.unit().services.guardian.confirm(token);
    const link = await this.uow.transaction(async (em) => {
      const link = await em.findOne(
        GuardianLink,
        { confirmTokenHash: hashToken(token), status: LinkStatus.pending },
        { lockMode: LockMode.PESSIMISTIC_WRITE },
      );
      if (!link) throw invalidLinkToken();
      const learner = link.learner ?? (await this.learnerByEmail(link.learnerEmail));
      if (!learner) throw learnerNotSignedUp();
      // The token proves the mailbox, not that whoever signed up with the address holds it: that account verifies first.
      if (!learner.emailVerified) throw learnerEmailNotVerified();
      link.learner = learner;
      await this.activate(em, link, learner);
      return link;
    });
    await this.afterActivation(link);
    return this.reload(link);
  }

  /** The guardian, the learner from 16, or an admin ends a pending or active link. */
  async revoke(actor: User, linkId: string): Promise<GuardianLink> {
    const elsewhere = await this.inLinksRegion(actor, linkId);
    if (elsewhere) return elsewhere.revoke(actor, linkId);
    const { link, learner } = await this.uow.transaction(async (em) => {
      const link = await this.visibleLink(em, actor, linkId);
      const isGuardian = link.guardian.id === actor.id;
      if (
        this.isLearnerOf(actor, link) &&
        !isGuardian &&
        !actor.hasRole(Role.admin) &&
        actor.birthDate &&
        ageOn(actor.birthDate) < MIN_AGE_TO_REVOKE
      ) {
        throw learnerTooYoungToRevoke(MIN_AGE_TO_REVOKE);
      }
      if (link.status === LinkStatus.revoked) throw linkAlreadyRevoked();
      const learner = link.learner ? await this.accounts.lockAccount(link.learner.id) : null;
      const wasPrimary = link.primary;
      link.status = LinkStatus.revoked;
      link.primary = false;
      link.revokedAt = new Date();
      link.confirmTokenHash = null;
      this.transition(em, link, LinkStatus.revoked, actor);
      await em.flush();
      if (learner && wasPrimary) await this.promoteNextPrimary(em, learner);
      return { link, learner };
    });
    if (learner) await this.updateLearnerStatus(learner.id);
    return this.reload(link);
  }

  async linksOf(user: User, first: number, after?: string | null): Promise<Page<GuardianLink>> {
    const claimsByAddress = user.hasRole(Role.learner) && user.emailVerified;
    const mine = [
      { guardian: user.id },
      { learner: user.id },
      ...(claimsByAddress ? [{ learner: null, learnerEmail: user.email }] : []),
    ];
    const rows = await this.em.find(
      GuardianLink,
      { $and: [{ $or: mine }, afterCursor(after)] },
      { orderBy: { createdAt: 'desc', id: 'desc' }, limit: first + 1, populate: ['guardian', 'learner'] },
    );
    return toPage(rows, first, after, () => this.em.count(GuardianLink, { $or: mine }));
  }

  /**
   * The guardian's side of a link as the viewer sees it. Anyone may sign up with a child's address
   * and so be the learner of a link its guardian declared: an account that has not proved its own
   * address is not told the guardian's.
   */
  guardianSeenBy(viewer: User | null, link: GuardianLink): { id: string; displayName: string; email: string | null } {
    const { id, displayName, email } = link.guardian;
    return { id, displayName, email: viewer?.id === id || viewer?.emailVerified ? email : null };
  }

  private reload(
    link: GuardianLink,
    populate: ('guardian' | 'learner')[] = ['guardian', 'learner'],
  ): Promise<GuardianLink> {
    return this.em.findOneOrFail(GuardianLink, { id: link.id }, { populate, refresh: true });
  }

  async transitionsOf(linkId: string): Promise<GuardianLinkTransition[]> {
    const here = await this.uow.children(
      'guardian.transitions',
      linkId,
      (links) =>
        this.em.find(GuardianLinkTransition, { link: { $in: links } }, { orderBy: { createdAt: 'asc', id: 'asc' } }),
      (transition) => transition.link.id,
    );
    if (here.length) return here;
    // Every link entered a status when it was made: none here means an admin's answer about a link of another region.
    const held = await linkRegion(this.uow.deps, 'id', linkId);
    return held && held.region !== this.uow.deps.region ? held.unit().services.guardian.transitionsOf(linkId) : here;
  }

  async isActiveGuardianOf(guardianId: string, learnerId: string): Promise<boolean> {
    if (!isId(learnerId)) return false;
    return (
      (await this.em.count(GuardianLink, { guardian: guardianId, learner: learnerId, status: LinkStatus.active })) > 0
    );
  }

  async activeGuardianIdsOf(learnerId: string): Promise<string[]> {
    const links = await this.em.find(
      GuardianLink,
      { learner: learnerId, status: LinkStatus.active },
      { fields: ['guardian'] },
    );
    return links.map((l) => l.guardian.id);
  }

  async activeLearnerIdsOf(guardianId: string): Promise<string[]> {
    const links = await this.em.find(
      GuardianLink,
      { guardian: guardianId, status: LinkStatus.active, learner: { $ne: null } },
      { fields: ['learner'] },
    );
    return links.map((l) => l.learner!.id);
  }

  /**
   * The accounts of the guardian's learners with an active link, in one statement mapped to the
   * entities (the links with their learners as entities cost several times the statement, on every
   * dashboard), oldest link first.
   */
  activeLearnersOf(guardianId: string): Promise<User[]> {
    return accountsAmong(
      this.em,
      'select learner_id, activated_at from guardian_links where guardian_id = ? and status = ?',
      [guardianId, LinkStatus.active],
    );
  }

  /** A linked learner's account, for their active guardian; anybody else's is not found. */
  async learnerFor(guardian: User, learnerId: string): Promise<User> {
    if (!(await this.isActiveGuardianOf(guardian.id, learnerId))) throw unknownLearner();
    const learner = await this.auth.findUser(learnerId);
    if (!learner) throw unknownLearner();
    return learner;
  }

  /** One of the caller's links (as guardian or learner), for `node(id:)`; anybody else's is not found. */
  async linkOf(user: User, id: string): Promise<GuardianLink> {
    const link = isId(id)
      ? await this.em.findOne(
          GuardianLink,
          { id, $or: [{ guardian: user.id }, { learner: user.id }] },
          { populate: ['guardian', 'learner'] },
        )
      : null;
    if (!link) throw unknownLink();
    return link;
  }

  /** The links among these ids that the user is guardian or learner of, as `linkOf` reads one (the graph's `nodes`). */
  linksByIds(user: User, ids: string[]): Promise<GuardianLink[]> {
    return this.em.find(
      GuardianLink,
      { id: { $in: ids.filter(isId) }, $or: [{ guardian: user.id }, { learner: user.id }] },
      { populate: ['guardian', 'learner'] },
    );
  }

  /** The AI restrictions of many learners in one statement (the graph reads them per learner). */
  aiAccessOfMany(learnerId: string): Promise<AiAccess> {
    return this.uow
      .loader<string, AiAccess>('guardian.aiAccess', async (ids) => {
        const rows = await this.em.find(LearnerAiAccess, { learner: { $in: [...ids] } });
        return ids.map((id) => {
          const access = rows.find((row) => row.learner.id === id);
          return {
            enabled: access?.enabled ?? true,
            memoryEnabled: access?.memoryEnabled ?? true,
            dailyMessageLimit: access?.dailyMessageLimit ?? null,
          };
        });
      })
      .load(learnerId);
  }

  async aiAccessOf(learnerId: string): Promise<AiAccess> {
    const access = await this.em.findOne(LearnerAiAccess, { learner: learnerId });
    return {
      enabled: access?.enabled ?? true,
      memoryEnabled: access?.memoryEnabled ?? true,
      dailyMessageLimit: access?.dailyMessageLimit ?? null,
    };
  }

  async setAiAccess(guardian: User, learnerId: string, change: Partial<AiAccess>): Promise<AiAccess> {
    await this.learnerFor(guardian, learnerId);
    const next = {
      ...(await this.aiAccessOf(learnerId)),
      ...Object.fromEntries(Object.entries(change).filter(([, v]) => v !== undefined)),
    };
    await this.em.upsert(LearnerAiAccess, {
      learner: learnerId,
      ...next,
      updatedBy: guardian.id,
      updatedAt: new Date(),
    });
    accessChanged(this.uow, learnerId);
    return next;
  }

  /** Locks the guardian's row so that concurrent declares count each other's links. */
  private async withGuardianLock(
    guardian: User,
    work: (em: EntityManager) => Promise<GuardianLink>,
  ): Promise<GuardianLink> {
    try {
      return await this.uow.transaction(async (em) => {
        await this.accounts.lockAccount(guardian.id);
        const open = await em.count(GuardianLink, { guardian: guardian.id, status: { $ne: LinkStatus.revoked } });
        if (open >= MAX_LINKS_PER_GUARDIAN) throw linkLimitReached(MAX_LINKS_PER_GUARDIAN);
        const link = await work(em);
        await em.flush();
        return link;
      });
    } catch (error) {
      if (error instanceof UniqueConstraintViolationException) throw linkExists();
      throw error;
    }
  }

  /**
   * Makes a link active under a lock on the learner's row: the first active link is the primary
   * one, and of two guardians activated at once exactly one is (a partial unique index agrees).
   */
  private async activate(em: EntityManager, link: GuardianLink, actor: User): Promise<void> {
    const learner = (await this.accounts.lockAccount(link.learner!.id))!;
    // The guardian's account from this unit's identity map or the instance's cache of accounts.
    const guardian = await this.auth.findUser(link.guardian.id);
    if (guardian?.region !== learner.region) throw regionMismatch();
    const existing = await em.findOne(GuardianLink, {
      learner,
      guardian: link.guardian,
      status: LinkStatus.active,
      id: { $ne: link.id },
    });
    if (existing) throw alreadyLinked();
    const primaries = await em.count(GuardianLink, { learner, primary: true });
    link.status = LinkStatus.active;
    link.primary = primaries === 0;
    link.activatedAt = new Date();
    link.confirmTokenHash = null;
    this.transition(em, link, LinkStatus.active, actor);
  }

  private async afterActivation(link: GuardianLink): Promise<void> {
    if (link.status === LinkStatus.active && link.learner) await this.updateLearnerStatus(link.learner.id);
  }

  /** Under 13, a learner is active exactly while a verified guardian's link is. */
  private async updateLearnerStatus(learnerId: string): Promise<void> {
    const learner = await this.accounts.freshAccount(learnerId);
    if (!learner) return;
    if (!learner.birthDate || ageOn(learner.birthDate) >= MIN_AGE_WITHOUT_GUARDIAN) return;
    // A link decides only between waiting for a guardian and active: a suspension is an admin's to lift.
    if (learner.status !== AccountStatus.active && learner.status !== AccountStatus.pending_guardian) return;
    const verifiedGuardian = await this.em.count(GuardianLink, {
      learner,
      status: LinkStatus.active,
      guardian: { emailVerifiedAt: { $ne: null } },
    });
    await this.auth.setStatus(learner, verifiedGuardian > 0 ? AccountStatus.active : AccountStatus.pending_guardian);
  }

  private async promoteNextPrimary(em: EntityManager, learner: User): Promise<void> {
    const next = await em.findOne(
      GuardianLink,
      { learner, status: LinkStatus.active },
      { orderBy: { activatedAt: 'asc' } },
    );
    if (next) next.primary = true;
  }

  /**
   * The job after a declaration: the learner's address gets the confirmation mail (within its
   * hourly limit of request mails) and, if it has an account, a notification. A link no longer
   * pending (confirmed, revoked, erased meanwhile) asks nothing.
   */
  async askLearner(linkId: string, token: string): Promise<void> {
    const link = await this.em.findOne(
      GuardianLink,
      { id: linkId, status: LinkStatus.pending },
      { populate: ['guardian', 'learner'] },
    );
    if (!link) return;
    const guardian = link.guardian;
    const learner = link.learner;
    const locale = learner?.locale ?? guardian.locale;
    // The language rides in the link too, for the page it opens (web/mail-links).
    const url = publicLink(this.deps.config.PUBLIC_URL, 'guardian/confirm', token, { lang: locale });
    // The mail and the notification are one commit (the job's).
    await this.uow.transaction(async () => {
      await sendRequestMail(this.uow, linkRequestMail(link.learnerEmail, locale, guardian.displayName, url, token));
      if (learner)
        await this.uow.raise({
          type: 'guardian.link_requested',
          linkId: link.id,
          learnerId: learner.id,
          guardianId: guardian.id,
          guardianName: guardian.displayName,
        });
    });
  }

  /** An admin's action on the link of a family of another region runs in that region, where the link is kept. */
  private async inLinksRegion(actor: User, linkId: string): Promise<GuardianService | null> {
    if (!actor.hasRole(Role.admin) || !isId(linkId)) return null;
    const held = await linkRegion(this.uow.deps, 'id', linkId);
    return held && held.region !== this.uow.deps.region ? held.unit().services.guardian : null;
  }

  /** The link if the actor is its guardian, its learner or an admin; otherwise not found. */
  private async visibleLink(em: EntityManager, actor: User, linkId: string): Promise<GuardianLink> {
    const link = isId(linkId)
      ? await em.findOne(GuardianLink, { id: linkId }, { lockMode: LockMode.PESSIMISTIC_WRITE })
      : null;
    if (!link && isId(linkId) && (await this.linkedFromAnotherRegion(linkId))) throw regionMismatch();
    if (!link || !(link.guardian.id === actor.id || this.isLearnerOf(actor, link) || actor.hasRole(Role.admin)))
      throw unknownLink();
    return link;
  }

  /**
   * A guardian of another region declared this link: it is kept in the guardian's database, which the
   * learner's answer never reaches. Only the link's random id tells, so the answer says no more than
   * the mail the learner got.
   */
  private async linkedFromAnotherRegion(linkId: string): Promise<boolean> {
    const held = await linkRegion(this.uow.deps, 'id', linkId);
    return held !== null && held.region !== this.uow.deps.region;
  }

  private async learnerByEmail(email: string): Promise<User | null> {
    const found = await this.accounts.findByEmail(email);
    return found?.hasRole(Role.learner) ? found : null;
  }

  private isLearnerOf(user: User, link: GuardianLink): boolean {
    // A link declared before the address had an account belongs to whoever proves the address: a
    // verified account (or the mailed token, see confirm), not the first to sign up with it.
    return link.learner
      ? link.learner.id === user.id
      : user.hasRole(Role.learner) && user.emailVerified && link.learnerEmail === user.email;
  }

  private transition(em: EntityManager, link: GuardianLink, status: LinkStatus, actor: User): void {
    em.create(GuardianLinkTransition, { link, status, actor: actor.id });
  }
}
