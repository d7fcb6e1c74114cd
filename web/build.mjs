// Builds every page under web/ (a folder with main.ts) into dist/web/<page>: one bundled, minified
// script (esbuild; the factory's graphql-ws and the explorer's GraphiQL included) beside its HTML
// and stylesheets, so no page needs anything from a CDN at run time.
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const web = dirname(fileURLToPath(import.meta.url));
const only = process.argv[2];
const pages = readdirSync(web).filter((name) => existsSync(join(web, name, 'main.ts')) && (!only || name === only));
const baseCss = readFileSync(join(web, 'shared', 'base.css'), 'utf8');

for (const page of pages) {
  const here = join(web, page);
  const out = join(web, '..', 'dist', 'web', page);
  mkdirSync(out, { recursive: true });
  await build({
    entryPoints: [join(here, 'main.ts')],
    outfile: join(out, 'app.js'),
    bundle: true,
    minify: true,
    sourcemap: true,
    format: 'iife',
    target: ['es2022'],
    // React (the explorer's GraphiQL) in its production build; fonts inside the stylesheet.
    define: { 'process.env.NODE_ENV': '"production"' },
    loader: { '.woff': 'dataurl', '.woff2': 'dataurl' },
    legalComments: 'none',
    logLevel: 'warning',
  });
  copyFileSync(join(here, 'index.html'), join(out, 'index.html'));
  // Our admin pages share a base stylesheet (app.css, with the page's own after it); the explorer
  // brings GraphiQL's, which esbuild writes as app.css from its imports, and a page.css of its own.
  if (existsSync(join(here, 'page.css'))) copyFileSync(join(here, 'page.css'), join(out, 'page.css'));
  else
    writeFileSync(
      join(out, 'app.css'),
      baseCss + (existsSync(join(here, 'app.css')) ? readFileSync(join(here, 'app.css'), 'utf8') : ''),
    );
}
