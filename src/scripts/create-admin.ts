import 'reflect-metadata';
import { parseArgs } from 'node:util';
import { ConfigError, loadConfig } from '../config';
import { createLogger } from '../logger';
import { AppError } from '../kernel/errors';
import { closeDeps, createDeps } from '../server/deps';
import { openUnit } from '../server/platform';
import { withDatabase } from './database';
import { PASSWORD_SOURCES, readPassword } from './password-input';

const usage = `Usage: npm run admin:create -- --email <address>, and the password (at least 10 characters): ${PASSWORD_SOURCES}.`;

/**
 * Creates the first admin (or makes an existing account an admin), against DATABASE_URL or the
 * embedded database, whether or not the service is running.
 */
async function main() {
  const email = emailArgument(process.argv.slice(2));
  const password = await readPassword();
  const config = loadConfig();
  const { user, created } = await withDatabase(config, async (orm, databaseUrl) => {
    // Real mail and events: a running service's subscribers see the new role.
    const deps = await createDeps(config, createLogger('warn'), orm, databaseUrl);
    try {
      return await openUnit(deps).services.admin.ensureAdmin(email, password);
    } finally {
      await closeDeps(deps);
    }
  });
  console.log(created ? `Created admin ${user.email} (${user.id}).` : `${user.email} (${user.id}) is an admin.`);
}

/**
 * The address from the command line. A password there is refused, never read; nor is a wrong
 * argument echoed back (it may be a password given to a mistyped option).
 */
function emailArgument(args: string[]): string {
  if (args.some((arg) => arg === '--password' || arg.startsWith('--password='))) {
    throw new ConfigError(
      `--password is refused: npm prints the command line it runs, and the shell's history keeps it. Instead, ${PASSWORD_SOURCES}.`,
    );
  }
  try {
    const { email } = parseArgs({ args, options: { email: { type: 'string' } } }).values;
    if (email) return email;
  } catch {
    // Unknown options and stray values: the usage says what is expected.
  }
  throw new ConfigError(usage);
}

main().catch((error) => {
  if (error instanceof ConfigError) console.error(error.message);
  else if (error instanceof AppError)
    console.error(
      `${error.message}${error.extra.details ? ` ${error.extra.details.map((d) => `${d.field}: ${d.message}`).join('; ')}` : ''}`,
    );
  else console.error(`admin:create failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
