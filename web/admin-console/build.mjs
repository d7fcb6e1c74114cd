// Builds the admin console page into dist/web/admin-console: one bundled, minified script (esbuild)
// beside its HTML and CSS, so the page needs nothing from a CDN at run time.
import { copyFileSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const here = dirname(fileURLToPath(import.meta.url));
const out = join(here, '..', '..', 'dist', 'web', 'admin-console');
mkdirSync(out, { recursive: true });
await build({
  entryPoints: [join(here, 'main.ts')],
  outfile: join(out, 'app.js'),
  bundle: true,
  minify: true,
  sourcemap: true,
  format: 'iife',
  target: ['es2022'],
  logLevel: 'warning',
});
for (const file of ['index.html', 'app.css']) copyFileSync(join(here, file), join(out, file));
