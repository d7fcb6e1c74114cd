import 'reflect-metadata';
import { parseArgs } from 'node:util';
import { ConfigError, loadConfig } from '../config';
import { createLogger } from '../logger';
import { AppError } from '../kernel/errors';
import { closeDeps, createDeps } from '../server/deps';
import { openUnit } from '../server/platform';
import { withDatabase } from './database';

const usage = 'Usage: npm run admin:create -- --email <address> --password <at least 10 characters>';

/**
 * Creates the first admin (or makes an existing account an admin), against DATABASE_URL or the
 * embedded database, whether or not the service is running.
 */
async function main() {
  const { values } = parseArgs({ options: { email: { type: 'string' }, password: { type: 'string' } } });
  if (!values.email || !values.password) throw new ConfigError(usage);
  const config = loadConfig();
  const { user, created } = await withDatabase(config, async (orm, databaseUrl) => {
    // Real mail and events: a running service's subscribers see the new role.
    const deps = await createDeps(config, createLogger('warn'), orm, databaseUrl);
    try {
      return await openUnit(deps).services.admin.ensureAdmin(values.email!, values.password!);
    } finally {
      await closeDeps(deps);
    }
  });
  console.log(created ? `Created admin ${user.email} (${user.id}).` : `${user.email} (${user.id}) is an admin.`);
}

main().catch((error) => {
  if (error instanceof ConfigError) console.error(error.message);
  else if (error instanceof AppError) console.error(`${error.message}${error.extra.details ? ` ${error.extra.details.map((d) => `${d.field}: ${d.message}`).join('; ')}` : ''}`);
  else console.error(`admin:create failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
