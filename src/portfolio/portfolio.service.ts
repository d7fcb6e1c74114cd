import { UniqueConstraintViolationException } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { User } from '../auth';
import type { CertificatesService } from '../certificates';
import { ConsentType } from '../consent';
import { regionHolding } from '../kernel/region-lookup';
import type { UnitOfWork } from '../kernel/unit-of-work';
import type { ProjectsService } from '../projects';
import { Portfolio } from './portfolio.entity';
import { handleTaken, notOwnCertificates, notOwnProjects, portfolioNotFound } from './portfolio.errors';

export interface PortfolioData {
  handle: string;
  headline: string;
  bio: string;
  projectIds: string[];
  certificateIds: string[];
  visibility: string;
}

/**
 * A learner's portfolio: the page that shows the projects and certificates they chose. Going public
 * follows the projects' rule (under 18, a guardian's progress_sharing consent).
 */
export class PortfolioService {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly projects: ProjectsService,
    private readonly certificates: CertificatesService,
  ) {}

  private get em(): EntityManager {
    return this.uow.em;
  }

  async myPortfolio(caller: User): Promise<Portfolio | null> {
    return this.em.findOne(Portfolio, { user: caller.id });
  }

  async updatePortfolio(caller: User, data: PortfolioData): Promise<Portfolio> {
    await this.projects.checkVisibility(caller, data.visibility);
    const projects = await this.projects.ownedAmong(caller, data.projectIds);
    if (projects.length !== new Set(data.projectIds).size) throw notOwnProjects();
    const certificates = data.certificateIds.length ? await this.certificates.listOf([caller.id]) : [];
    const own = new Set(certificates.map((c) => c.id));
    if (data.certificateIds.some((id) => !own.has(id))) throw notOwnCertificates();
    let portfolio = await this.myPortfolio(caller);
    const fields = {
      handle: data.handle,
      headline: data.headline,
      bio: data.bio,
      projectIds: [...new Set(data.projectIds)],
      certificateIds: [...new Set(data.certificateIds)],
      visibility: data.visibility as 'private' | 'public',
    };
    if (await this.handleOfAnother(caller, data.handle)) throw handleTaken();
    if (portfolio) this.em.assign(portfolio, fields);
    else portfolio = this.em.create(Portfolio, { user: caller.id, ...fields });
    try {
      await this.em.flush();
    } catch (error) {
      if (error instanceof UniqueConstraintViolationException) throw handleTaken();
      throw error;
    }
    return portfolio;
  }

  /**
   * A handle names one page across every region (each region's database keeps its own accounts'
   * portfolios, unique there): another account's, wherever it is kept, takes it.
   */
  private async handleOfAnother(caller: User, handle: string): Promise<boolean> {
    const probe = 'select 1 from codelab_portfolios where handle = ? and user_id <> ? limit 1';
    return (await regionHolding(this.uow.deps, probe, [handle, caller.id])) !== null;
  }

  /**
   * The public page: only while public (and, under 18, while the consent stands); only public
   * projects. Anybody may read it (anonymous callers are served from global): it is read in the
   * region whose database keeps it.
   */
  async publicPortfolio(handle: string) {
    if (!/^[a-z0-9_-]{3,30}$/.test(handle)) throw portfolioNotFound();
    const held = await regionHolding(this.uow.deps, 'select 1 from codelab_portfolios where handle = ? limit 1', [
      handle,
    ]);
    if (!held) throw portfolioNotFound();
    return held.region === this.uow.deps.region
      ? this.publicPortfolioHere(handle)
      : held.unit().services.portfolio.publicPortfolioHere(handle);
  }

  private async publicPortfolioHere(handle: string) {
    const portfolio = await this.em.findOne(Portfolio, { handle }, { populate: ['user'] });
    if (!portfolio || portfolio.visibility !== 'public' || !(await this.projects.publicAllowed(portfolio.user.id)))
      throw portfolioNotFound();
    const projects = await this.projects.publicAmong(portfolio.user.id, portfolio.projectIds);
    const chosen = new Set(portfolio.certificateIds);
    const certificates = chosen.size
      ? (await this.certificates.listOf([portfolio.user.id])).filter((c) => chosen.has(c.id))
      : [];
    return { portfolio, displayName: portfolio.user.displayName, projects, certificates };
  }

  /** The progress_sharing consent of a minor was revoked: a public portfolio is private again. */
  async consentRevoked(subjectId: string, type: string): Promise<void> {
    if (type !== ConsentType.progress_sharing) return;
    await this.uow.transaction((em) =>
      em.nativeUpdate(Portfolio, { user: subjectId, visibility: 'public' }, { visibility: 'private' }),
    );
  }
}
