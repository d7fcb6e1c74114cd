/**
 * The layering of docs/architecture.md, checked by `npm test` (test/architecture/layers.test.ts):
 * the shared kernel and the infrastructure know no area, the composition root reaches the areas
 * only through their list, an area reaches another only through that area's index.ts, and nothing
 * under src/ but the composition root and the scripts reaches outside src/.
 */
const infrastructure = '(kernel|db|permissions|jobs|mail|server|scripts|types)';
const area = `^src/(?!${infrastructure}/)([^/]+)/`;

module.exports = {
  forbidden: [
    {
      name: 'kernel-knows-no-area',
      comment:
        'The kernel, db/, permissions/, jobs/, mail/ and rest/ serve every area and import none (nor the list of areas).',
      severity: 'error',
      from: { path: ['^src/(kernel|db|permissions|jobs|mail)/', '^rest/', '^src/(config|logger)\\.ts$'] },
      to: { path: [area, '^src/areas\\.ts$', '^src/server/'] },
    },
    {
      name: 'areas-through-their-list',
      comment: 'The composition root reads src/areas.ts; it names no area.',
      severity: 'error',
      from: { path: '^src/server/' },
      to: { path: area },
    },
    {
      name: 'area-through-its-index',
      comment: 'Another area is reached through its index.ts, never its files.',
      severity: 'error',
      from: { path: '^src/([^/]+)/' },
      to: { path: area, pathNot: ['^src/$1/', '^src/[^/]+/index\\.ts$'] },
    },
    {
      name: 'no-area-reaches-the-root',
      comment: 'Areas are composed, they do not compose: no area imports the composition root or the list.',
      severity: 'error',
      from: { path: area },
      to: { path: ['^src/server/', '^src/areas\\.ts$'] },
    },
    {
      name: 'src-stands-in-src',
      comment:
        'An area, the kernel and the infrastructure import only src/ and packages: what REST or a web page shares with them lives in the kernel. Only the composition root (server/) and the scripts reach rest/.',
      severity: 'error',
      from: { path: '^src/', pathNot: '^src/(server|scripts)/' },
      to: { pathNot: ['^src/', 'node_modules'], dependencyTypesNot: ['core'], couldNotResolve: false },
    },
    {
      name: 'no-cycles',
      comment: 'A cycle through type-only imports costs nothing at run time; any other is refused.',
      severity: 'error',
      from: { path: '^(src|rest)/' },
      to: { circular: true, viaOnly: { dependencyTypesNot: ['type-only'] } },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    exclude: { path: ['^dist/', '^node_modules/'] },
  },
};
