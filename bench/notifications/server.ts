import 'reflect-metadata';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../../src/config';
import { createLogger } from '../../src/logger';
import { createApp } from '../../src/server/app';

/** The instance under measure, in a process of its own so that its memory is its own. */
async function main() {
  const config = loadConfig({
    ...process.env,
    NODE_ENV: 'production',
    DATA_DIR: mkdtempSync(join(tmpdir(), 'lp-bench-server-')),
    LOG_LEVEL: 'silent',
    RATE_LIMIT_DEFAULT: '100000000',
    RATE_LIMIT_AUTH: '100000000',
  });
  const app = await createApp(config, createLogger('silent'));
  const { port } = await app.listen(0, '127.0.0.1');
  process.send!({ url: `http://127.0.0.1:${port}` });
  process.on('message', async (message) => {
    if (message === 'memory') {
      global.gc?.();
      process.send!({ rss: process.memoryUsage().rss, heapUsed: process.memoryUsage().heapUsed });
      return;
    }
    await app.close();
    process.exit(0);
  });
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
