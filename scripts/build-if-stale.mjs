// Builds dist/ only when a source is newer than the last build: command-line tasks (admin:create,
// db:migrate) no longer spend most of a minute rebuilding an unchanged service. `--stamp` records a
// build that just finished (the end of `npm run build`).
import { execSync } from 'node:child_process';
import { existsSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const stamp = join(root, 'dist', '.built');
const sources = [
  'src',
  'rest',
  'web',
  'scripts',
  'package.json',
  'package-lock.json',
  'tsconfig.json',
  'tsconfig.build.json',
];

function newest(path) {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return readdirSync(path).reduce(
    (latest, name) => (name === 'node_modules' ? latest : Math.max(latest, newest(join(path, name)))),
    stat.mtimeMs,
  );
}

if (process.argv.includes('--stamp')) {
  writeFileSync(stamp, `${new Date().toISOString()}\n`);
} else {
  const latest = Math.max(
    ...sources
      .map((s) => join(root, s))
      .filter(existsSync)
      .map(newest),
  );
  if (!existsSync(stamp) || statSync(stamp).mtimeMs < latest)
    execSync('npm run build --silent', { cwd: root, stdio: 'inherit' });
}
