import { defineArea } from '../kernel/area';
import { jsonRoomFor } from '../kernel/body-limit';
import { plain, rowsOf } from '../kernel/personal-data';
import { Exercise, Submission } from './codelab.entity';
import { defineCodeLabJobs } from './codelab.jobs';
import { CodeLabResolver, CodeLabUserEdges, codelabNodes } from './codelab.resolver';
import { codelabRoutes } from './codelab.routes';
import { codelabRules } from './codelab.rules';
import { CODELAB_RUNS_BUCKET, CodeLabService, codeRunnerOf } from './codelab.service';
import { codeRunnerDefaults } from './sandbox';
import { Migration20261123100000_codelab } from './migrations/Migration20261123100000_codelab';
import { Migration20261201000100_codelab_verdict_release } from './migrations/Migration20261201000100_codelab_verdict_release';

export type { CodeLabService } from './codelab.service';
export { RunResultView } from './codelab.types';
export { codeRunnerDefaults, type Language, languages, type RunResult } from './sandbox';

declare module '../kernel/events' {
  interface DomainEvents {
    /**
     * A submission's verdict was released (at its `releaseAt`, not when judging ended). `score` is this submission's;
     * the progress area keeps the best, and counts an accepted exercise linked to a lesson as that
     * lesson done.
     */
    exerciseJudged: {
      learnerId: string;
      exerciseId: string;
      courseId: string | null;
      lessonId: string | null;
      score: number;
      accepted: boolean;
    };
  }
}

declare module '../kernel/services' {
  interface Services {
    codelab: CodeLabService;
  }
}

/**
 * CodeLab (docs/codelab.md): running learners' code in the sandbox, exercises, and judging their
 * submissions. Its migration made the tables of projects and portfolios too, which now belong to
 * those areas.
 */
export const codelabArea = defineArea({
  name: 'codelab',
  uses: ['ai', 'auth', 'consent', 'entitlements', 'guardian'],
  sharedTables: ['codelab_exercises'],
  entities: [Exercise, Submission],
  resolvers: [CodeLabResolver, CodeLabUserEdges],
  nodes: codelabNodes,
  rateLimits: (config) => ({ [CODELAB_RUNS_BUCKET]: { points: config.CODELAB_RUNS_PER_MINUTE, seconds: 60 } }),
  rules: codelabRules,
  routes: codelabRoutes,
  // Any JSON encoding of code and stdin of 64 KiB each gets through to the limits of docs/codelab.md
  // and their validation_failed, instead of express's 413 at BODY_LIMIT.
  bodyLimits: {
    runCode: jsonRoomFor(codeRunnerDefaults.codeLimitBytes + codeRunnerDefaults.stdinLimitBytes, 16 * 1024),
    submitSolution: jsonRoomFor(codeRunnerDefaults.codeLimitBytes, 16 * 1024),
  },
  migrations: [
    { name: 'Migration20261123100000_codelab', class: Migration20261123100000_codelab },
    { name: 'Migration20261201000100_codelab_verdict_release', class: Migration20261201000100_codelab_verdict_release },
  ],
  jobs: defineCodeLabJobs,
  // The sandbox's processes end with the service: a snapshot still being built outlived it by seconds.
  close: (deps) => codeRunnerOf(deps).stop(),
  // The sandbox pools of this instance: a queue that grows means runs wait for a worker.
  gauges: (deps) => [
    {
      name: 'codelab_workers',
      help: 'CodeLab sandbox workers of this instance by language and state: busy (running code) or idle (warm, ready)',
      labelNames: ['language', 'state'],
      read: () =>
        Object.entries(codeRunnerOf(deps).stats()).flatMap(([language, pool]) => [
          { labels: { language, state: 'busy' }, value: pool.busy },
          { labels: { language, state: 'idle' }, value: pool.ready },
        ]),
    },
    {
      name: 'codelab_queued_runs',
      help: 'CodeLab runs waiting for a free worker, by language',
      labelNames: ['language'],
      read: () =>
        Object.entries(codeRunnerOf(deps).stats()).map(([language, pool]) => ({
          labels: { language },
          value: pool.queued,
        })),
    },
  ],
  services: { codelab: (uow, services) => new CodeLabService(uow, services.ai) },
  personalData: {
    entities: [Submission],
    // A verdict not yet released stays out of the archive, as it does out of every answer.
    export: async (userId, _services, uow) => ({
      submissions: rowsOf(uow, Submission, { user: userId }, (row) =>
        row.status === 'completed' ? plain(row) : { ...plain(row), verdict: null, score: 0, results: [] },
      ),
    }),
    // A learner's code is theirs: their submissions go.
    erase: async (userId, _pseudonym, _services, uow) => {
      await uow.em.nativeDelete(Submission, { user: userId });
    },
  },
});
