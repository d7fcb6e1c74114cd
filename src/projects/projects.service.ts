import type { EntityManager } from '@mikro-orm/postgresql';
import { ADULT_AGE, ageOn, type AuthService, type User } from '../auth';
import type { CodeLabService, Language, RunResult } from '../codelab';
import { ConsentType, type ConsentService } from '../consent';
import type { GuardianService } from '../guardian';
import { isId } from '../kernel/ids';
import { regionHolding } from '../kernel/region-lookup';
import { afterCursor, type Page, toPage } from '../kernel/pagination';
import type { UnitOfWork } from '../kernel/unit-of-work';
import { Project, type ProjectFile, type Visibility } from './project.entity';
import { duplicateFilePaths, notProjectOwner, projectNotFound, projectTooLarge, tooManyFiles } from './projects.errors';

export const MAX_PROJECT_FILES = 50;
export const MAX_PROJECT_BYTES = 256 * 1024;

export interface ProjectData {
  title: string;
  description: string;
  language: string;
  files: ProjectFile[];
  visibility: string;
}

const isMinor = (user: User) => user.birthDate !== null && ageOn(user.birthDate) < ADULT_AGE;

/**
 * Learners' code projects: saving, sharing, running (through CodeLab's sandbox and its runs a
 * minute) and remixing. A project the caller may not see is simply not found.
 */
export class ProjectsService {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly consent: ConsentService,
    private readonly guardian: GuardianService,
    private readonly codelab: CodeLabService,
    private readonly auth: AuthService,
  ) {}

  private get em(): EntityManager {
    return this.uow.em;
  }

  async createProject(caller: User, data: ProjectData): Promise<Project> {
    this.checkFiles(data.files);
    await this.checkVisibility(caller, data.visibility);
    const project = this.em.create(Project, {
      owner: caller.id,
      title: data.title,
      description: data.description,
      language: data.language as Language,
      files: data.files.map(({ path, content }) => ({ path, content })),
      visibility: data.visibility as Visibility,
    });
    await this.em.flush();
    return project;
  }

  async myProjects(caller: User, first: number, after?: string | null): Promise<Page<Project>> {
    const rows = await this.em.find(
      Project,
      { owner: caller.id, ...afterCursor(after) },
      { orderBy: { createdAt: 'desc', id: 'desc' }, limit: first + 1 },
    );
    return toPage(rows, first, after, () => this.em.count(Project, { owner: caller.id }));
  }

  /** The owner, the owner's active guardians, and anyone when it is unlisted or public. */
  async project(viewer: User | null, id: string): Promise<Project> {
    if (!isId(id)) throw projectNotFound();
    const project = await this.em.findOne(Project, { id });
    if (!project) return this.projectElsewhere(viewer, id);
    if (!(await this.maySee(viewer, project))) throw projectNotFound();
    return project;
  }

  /**
   * A project is kept in its owner's home region, and an unlisted or public one may be read by anyone
   * (anonymous callers are served from global): it is read, and its sharing decided, where it is.
   */
  private async projectElsewhere(viewer: User | null, id: string): Promise<Project> {
    const held = await regionHolding(this.uow.deps, 'select 1 from codelab_projects where id = ? limit 1', [id]);
    if (!held || held.region === this.uow.deps.region) throw projectNotFound();
    return held.unit().services.projects.project(viewer, id);
  }

  /**
   * The projects among these ids the viewer may see, as `project` reads one: one read, and what
   * decides for another's project (may the owner share, is the viewer their guardian) asked once
   * per owner however many of their projects are asked for.
   */
  async projectsByIds(viewer: User | null, ids: string[]): Promise<Project[]> {
    const rows = await this.em.find(Project, { id: { $in: ids.filter(isId) } });
    const asked = new Map<string, Promise<boolean>>();
    const once = (key: string, read: () => Promise<boolean>) => asked.get(key) ?? asked.set(key, read()).get(key)!;
    const seen = await Promise.all(rows.map((project) => this.maySee(viewer, project, once)));
    return rows.filter((_project, i) => seen[i]);
  }

  /** The caller's own projects among these ids (a portfolio shows only its owner's). */
  ownedAmong(caller: User, ids: string[]): Promise<Project[]> {
    return ids.length ? this.em.find(Project, { id: { $in: ids }, owner: caller.id }) : Promise.resolve([]);
  }

  /** The owner's public projects among these ids, newest first (a public portfolio shows these only). */
  publicAmong(ownerId: string, ids: string[]): Promise<Project[]> {
    return ids.length
      ? this.em.find(
          Project,
          { id: { $in: ids }, owner: ownerId, visibility: 'public' },
          { orderBy: { createdAt: 'desc' } },
        )
      : Promise.resolve([]);
  }

  private async maySee(
    viewer: User | null,
    project: Project,
    once = (_key: string, read: () => Promise<boolean>) => read(),
  ): Promise<boolean> {
    const owner = project.owner.id;
    if (viewer && owner === viewer.id) return true;
    if (project.visibility !== 'private' && (await once(`public:${owner}`, () => this.publicAllowed(owner))))
      return true;
    return Boolean(
      viewer && (await once(`guardian:${owner}`, () => this.guardian.isActiveGuardianOf(viewer.id, owner))),
    );
  }

  /** The caller's own project: someone else's the caller may see is theirs to read, not to change (403); any other is not found. */
  async ownProject(caller: User, id: string): Promise<Project> {
    const project = await this.project(caller, id);
    if (project.owner.id !== caller.id) throw notProjectOwner();
    return project;
  }

  async updateProject(caller: User, id: string, data: ProjectData): Promise<Project> {
    const project = await this.ownProject(caller, id);
    this.checkFiles(data.files);
    await this.checkVisibility(caller, data.visibility);
    this.em.assign(project, {
      title: data.title,
      description: data.description,
      language: data.language as Language,
      files: data.files.map(({ path, content }) => ({ path, content })),
      visibility: data.visibility as Visibility,
    });
    await this.em.flush();
    return project;
  }

  async deleteProject(caller: User, id: string): Promise<boolean> {
    const project = await this.ownProject(caller, id);
    await this.em.removeAndFlush(project);
    return true;
  }

  /** Runs the project's entry file: main.py, main.js or index.js, else its first file; counted as CodeLab counts runs. */
  async runProject(caller: User, id: string, stdin?: string | null): Promise<RunResult> {
    const project = await this.project(caller, id);
    const entry = project.files.find((f) => ['main.py', 'main.js', 'index.js'].includes(f.path)) ?? project.files[0];
    return this.codelab.run(caller, { language: project.language, code: entry.content, stdin });
  }

  /** A private copy for the caller, remembering where it came from. */
  async remixProject(caller: User, id: string): Promise<Project> {
    const original = await this.project(caller, id);
    const copy = this.em.create(Project, {
      owner: caller.id,
      title: original.title,
      description: original.description,
      language: original.language,
      files: original.files.map((f) => ({ ...f })),
      visibility: 'private',
      remixOf: original.id,
    });
    await this.em.flush();
    return copy;
  }

  private checkFiles(files: ProjectFile[]): void {
    if (files.length > MAX_PROJECT_FILES) throw tooManyFiles(MAX_PROJECT_FILES);
    const paths = new Set(files.map((f) => f.path));
    if (paths.size !== files.length) throw duplicateFilePaths();
    const bytes = files.reduce((sum, f) => sum + Buffer.byteLength(f.path) + Buffer.byteLength(f.content), 0);
    if (bytes > MAX_PROJECT_BYTES) throw projectTooLarge();
  }

  /** Under 18, public needs a guardian's progress_sharing consent (docs/codelab.md); the portfolio asks it too. */
  async checkVisibility(owner: User, visibility: string): Promise<void> {
    if (visibility !== 'public' || !isMinor(owner)) return;
    await this.consent.assertConsent(owner.id, ConsentType.progress_sharing);
  }

  /** Whether the owner's public things may show now: adults always, minors while the consent stands. */
  async publicAllowed(ownerId: string): Promise<boolean> {
    const owner = await this.auth.findUser(ownerId);
    if (!owner || !isMinor(owner)) return Boolean(owner);
    return this.consent.hasConsent(owner.id, ConsentType.progress_sharing);
  }

  /** The progress_sharing consent of a minor was revoked: what they made public is private again. */
  async consentRevoked(subjectId: string, type: string): Promise<void> {
    if (type !== ConsentType.progress_sharing) return;
    await this.uow.transaction((em) =>
      em.nativeUpdate(Project, { owner: subjectId, visibility: 'public' }, { visibility: 'private' }),
    );
  }
}
