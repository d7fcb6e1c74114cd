import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Deps } from '../../kernel/deps';
import { methodNotAllowed } from '../../kernel/http.errors';
import { unknownPath } from '../server.errors';
import { answerError } from '../chain/errors';
import { scraper } from './endpoint';

/**
 * `METRICS_PORT`: a listener that answers `GET /metrics` and nothing else, without a token. The API's
 * port keeps its rule (loopback or an admin); this one is for a scraper in another pod or host, and
 * who may reach it is the network's decision (in Kubernetes, a NetworkPolicy that admits only the
 * monitoring namespace to this port). It carries no personal data, only the instance's counters.
 */
export function metricsListener(deps: Deps): {
  listen(port: number, host?: string): Promise<AddressInfo>;
  close(): Promise<void>;
} {
  const scrape = scraper(deps);
  const server: Server = createServer((req, res) => {
    res.setHeader('X-Content-Type-Options', 'nosniff');
    const path = (req.url ?? '/').split('?')[0];
    const refuse = (error: unknown) => answerError(deps.log, randomUUID(), res, error);
    if (path !== '/metrics') return refuse(unknownPath());
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.setHeader('Allow', 'GET, HEAD');
      return refuse(methodNotAllowed());
    }
    scrape(res).catch(refuse);
  });
  return {
    listen: (port, host) =>
      new Promise((resolve, reject) => {
        server.once('error', reject);
        server.listen(port, host, () => resolve(server.address() as AddressInfo));
      }),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
