// The REST table's operations live in `.graphql` files beside each area; tsc does not copy them.
import { cpSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
cpSync(join(root, 'src'), join(root, 'dist', 'src'), {
  recursive: true,
  filter: (path) => !path.includes('.') || path.endsWith('.graphql'),
});
