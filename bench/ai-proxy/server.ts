import 'reflect-metadata';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { EntityManager } from '@mikro-orm/postgresql';
import { Role } from '../../src/auth/user.entity';
import { ConsentType } from '../../src/consent/consent.entity';
import { loadConfig } from '../../src/config';
import { startEmbeddedPostgres } from '../../src/db/embedded';
import { createLogger } from '../../src/logger';
import { createApp } from '../../src/server/app';
import { createServices } from '../../src/services';

/** The service under measure, in a process of its own, with one learner allowed to chat. */
async function main() {
  const dataDir = mkdtempSync(join(tmpdir(), 'lp-bench-ai-'));
  const embedded = process.env.DATABASE_URL ? undefined : await startEmbeddedPostgres(dataDir, 54400 + Math.floor(Math.random() * 500));
  const config = loadConfig({
    ...process.env,
    NODE_ENV: 'production',
    DATABASE_URL: process.env.DATABASE_URL ?? embedded!.url(),
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    RATE_LIMIT_DEFAULT: '100000000',
    RATE_LIMIT_AI: '100000000',
    AI_QUOTA_FREE: '100000000',
  });
  const app = await createApp(config, createLogger('silent'));
  const { port } = await app.listen(0, '127.0.0.1');
  const services = createServices(app.deps.orm.em.fork() as EntityManager, app.deps);
  const session = await services.auth.signup({ email: `bench-${Date.now()}@example.com`, password: 'a benchmark password', displayName: 'Bench', role: Role.learner, birthDate: '1990-01-01', country: 'VN' });
  await services.consent.grant(session.user, ConsentType.ai_conversation);
  process.send!({ url: `http://127.0.0.1:${port}`, token: session.accessToken });
  process.on('message', async () => {
    await app.close();
    await embedded?.stop();
    process.exit(0);
  });
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
