import { makeDataDir } from '../../test/support/data-dir';
import 'reflect-metadata';

import type { AddressInfo } from 'node:net';
import { WebSocketServer } from 'ws';
import { loadConfig } from '../../src/config';
import { createLogger } from '../../src/logger';
import { createApp } from '../../src/server/app';

/** The instance under measure, in a process of its own so that its memory is its own. */
async function main() {
  const config = loadConfig({
    ...process.env,
    NODE_ENV: 'production',
    DATA_DIR: makeDataDir('lp-bench-server-'),
    LOG_LEVEL: 'silent',
    RATE_LIMIT_DEFAULT: '100000000',
    RATE_LIMIT_AUTH: '100000000',
  });
  const app = await createApp(config, createLogger('silent'));
  const { port } = await app.listen(0, '127.0.0.1');
  process.send!({ url: `http://127.0.0.1:${port}` });
  // The baseline: a bare ws server in this same process, sending a message as it is given.
  let bare: WebSocketServer | undefined;
  process.on(
    'message',
    async (message: { memory?: true; bare?: true; broadcast?: string; bareClose?: true; stop?: true }) => {
      if (message.memory) {
        global.gc?.();
        process.send!({ rss: process.memoryUsage().rss, heapUsed: process.memoryUsage().heapUsed });
      } else if (message.bare) {
        bare = new WebSocketServer({ port: 0, host: '127.0.0.1' });
        await new Promise((resolve) => bare!.once('listening', resolve));
        process.send!({ port: (bare.address() as AddressInfo).port });
      } else if (message.broadcast) {
        for (const socket of bare!.clients) socket.send(message.broadcast);
        process.send!({ sent: bare!.clients.size });
      } else if (message.bareClose) {
        for (const socket of bare!.clients) socket.terminate();
        await new Promise((resolve) => bare!.close(resolve));
        process.send!({ closed: true });
      } else if (message.stop) {
        await app.close();
        process.exit(0);
      }
    },
  );
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
