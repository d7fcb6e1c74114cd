import { codeRunnerDefaults } from '../codelab';
import { defineArea } from '../kernel/area';
import { jsonRoomFor } from '../kernel/body-limit';
import { allRowsOf } from '../kernel/personal-data';
import { Project } from './project.entity';
import { ProjectsResolver, ProjectsUserEdges, projectsNodes } from './projects.resolver';
import { projectsRoutes } from './projects.routes';
import { projectsRules } from './projects.rules';
import { MAX_PROJECT_BYTES, ProjectsService } from './projects.service';

export { presentProject } from './projects.resolver';
export { ProjectView } from './projects.types';
export type { Project } from './project.entity';
export type { ProjectsService } from './projects.service';

declare module '../kernel/services' {
  interface Services {
    projects: ProjectsService;
  }
}

/**
 * Learners' code projects: files, saving, sharing, remixing, and running them in CodeLab's sandbox
 * (docs/codelab.md). The table is still the one CodeLab's migration made (`codelab_projects`).
 */
export const projectsArea = defineArea({
  name: 'projects',
  uses: ['auth', 'codelab', 'consent', 'guardian'],
  entities: [Project],
  resolvers: [ProjectsResolver, ProjectsUserEdges],
  nodes: projectsNodes,
  rules: projectsRules,
  routes: projectsRoutes,
  // Any JSON encoding of a project of 256 KiB, or of stdin of 64 KiB, gets through to the limits of
  // docs/codelab.md and their validation_failed, instead of express's 413 at BODY_LIMIT.
  bodyLimits: {
    createProject: jsonRoomFor(MAX_PROJECT_BYTES, 64 * 1024),
    updateProject: jsonRoomFor(MAX_PROJECT_BYTES, 64 * 1024),
    runProject: jsonRoomFor(codeRunnerDefaults.stdinLimitBytes, 16 * 1024),
  },
  services: {
    projects: (uow, services) =>
      new ProjectsService(uow, services.consent, services.guardian, services.codelab, services.auth),
  },
  on: {
    consentRevoked: (event, services) => services.projects.consentRevoked(event.subjectId, event.consentType),
  },
  personalData: {
    entities: [Project],
    export: async (userId, _services, uow) => ({ projects: await allRowsOf(uow, Project, { owner: userId }) }),
    // A learner's code is theirs: their projects go. A remix another learner made is that learner's and stays.
    erase: async (userId, _pseudonym, _services, uow) => {
      await uow.em.nativeDelete(Project, { owner: userId });
    },
  },
});
