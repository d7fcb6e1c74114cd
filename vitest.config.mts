import swc from 'unplugin-swc';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  plugins: [
    // SWC, not esbuild: type-graphql and MikroORM need emitted decorator metadata.
    swc.vite({
      module: { type: 'es6' },
      jsc: {
        parser: { syntax: 'typescript', decorators: true },
        transform: { legacyDecorator: true, decoratorMetadata: true, useDefineForClassFields: false },
        target: 'es2022',
      },
    }),
  ],
  resolve: {
    // One copy of graphql: the ESM and CJS entries would otherwise load as two realms.
    alias: [{ find: /^graphql$/, replacement: 'graphql/index.js' }],
  },
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/support/global-setup.ts'],
    pool: 'forks',
    // A worker keeps its modules from one test file to the next: each file still starts its own
    // application on its own database, but the application's code (Apollo, type-graphql, MikroORM,
    // Pyodide's host) is imported once per worker, not once per file (a third of the suite's CPU).
    isolate: false,
    maxWorkers: 2,
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // The JSON report is what .ci/run reads for its closing `N passed, N failed` line.
    reporters: ['default', ['json', { outputFile: 'reports/vitest.json' }]],
  },
});
