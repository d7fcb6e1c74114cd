import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { Fleet } from './fleet/fleet';
import { stopOnSignals } from './fleet/processes';

/**
 * `npm run fleet [-- --instances N] [--data-dir DIR]`: PostgreSQL, Redis (when installed), N
 * instances and nginx in front, on this machine and free ports; Ctrl-C stops them all in order.
 * The instances get this shell's environment (SMTP_URL, LOG_LEVEL...), as `npm start` would, and
 * share its DATABASE_URL when it sets one.
 */
async function main(): Promise<void> {
  const { values } = parseArgs({
    options: { instances: { type: 'string', default: '3' }, 'data-dir': { type: 'string', default: './data/fleet' } },
  });
  const instances = Number(values.instances);
  if (!Number.isInteger(instances) || instances < 1)
    throw new Error(`--instances must be a whole number of at least 1, not ${values.instances}`);
  const fleet = new Fleet({
    instances,
    dataDir: resolve(values['data-dir']),
    // A server of the operator's when the shell names one; else the embedded one under the data folder.
    databaseUrl: process.env.DATABASE_URL,
    // The instances' log lines, readable: their output is a pipe, which the service would write JSON to.
    env: { LOG_FORMAT: 'pretty', ...process.env, TRUST_PROXY: '1' },
    onOutput: (name, line) => console.log(`${name.padEnd(8)} | ${line}`),
  });
  let stopping = false;
  stopOnSignals(async (signal) => {
    stopping = true;
    console.log(`${signal}: stopping nginx, the instances, then the databases`);
    await fleet.stop();
  });
  try {
    await fleet.start();
  } catch (error) {
    if (stopping) return;
    console.error(`the fleet did not start: ${error instanceof Error ? error.message : String(error)}`);
    await fleet.stop();
    process.exit(1);
  }
  const members = [
    `nginx in front of ${fleet.instances.map((instance) => `${instance.name} ${instance.url}`).join(', ')}`,
    fleet.redisUrl ? 'Redis' : 'no Redis (limits counted in PostgreSQL)',
  ];
  console.log(`\nThe fleet answers at ${fleet.proxyUrl} (${members.join('; ')}). Ctrl-C stops it.\n`);
}

void main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : String(error));
  process.exit(1);
});
