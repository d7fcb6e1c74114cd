export { CodeRunner, type CodeRunnerOptions, codeRunnerDefaults, codeRunnerSettings } from './code-runner';
export type { Language, RunRequest, RunResult, RunStatus, PoolStats } from './types';
export { languages, runStatuses } from './types';
export { pyodideDir } from './python-pool';
