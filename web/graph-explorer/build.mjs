// Builds the GraphQL explorer into dist/web/graph-explorer: GraphiQL, React and CodeMirror bundled
// and minified by esbuild into one script and one stylesheet beside the page, so /graphql in a
// browser needs nothing from a CDN and runs under a strict Content-Security-Policy.
import { copyFileSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const here = dirname(fileURLToPath(import.meta.url));
const out = join(here, '..', '..', 'dist', 'web', 'graph-explorer');
mkdirSync(out, { recursive: true });
await build({
  entryPoints: [join(here, 'main.ts')],
  outfile: join(out, 'app.js'),
  bundle: true,
  minify: true,
  sourcemap: false,
  format: 'iife',
  target: ['es2020'],
  define: { 'process.env.NODE_ENV': '"production"' },
  loader: { '.woff': 'dataurl', '.woff2': 'dataurl' },
  legalComments: 'none',
  logLevel: 'warning',
});
for (const file of ['index.html', 'page.css']) copyFileSync(join(here, file), join(out, file));
