// Type-aware checks that catch what tests miss: a promise nobody awaits (an error lost, a write
// racing the answer) and a promise where a callback's result is ignored (express handlers, timers).
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'data/**', 'reports/**', 'web/**/*.mjs', 'scripts/**', '**/*.cjs', '*.mjs', '*.mts'] },
  {
    files: ['src/**/*.ts', 'rest/**/*.ts', 'bench/**/*.ts', 'test/**/*.ts'],
    extends: [tseslint.configs.base],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { arguments: false, attributes: false } }],
      '@typescript-eslint/await-thenable': 'error',
      '@typescript-eslint/no-duplicate-enum-values': 'error',
    },
  },
);
